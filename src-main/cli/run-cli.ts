// Runs mlso-dl in-process and returns its exit status: the entry point calls it with the real argv,
// tests with captured streams. Every failure becomes one or two plain lines, never a stack trace.
import { CommanderError } from 'commander';
import { MlsoError } from '../core/errors';
import type { CliIo } from './cli-context';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, exitCodeFor, interruptedExitCode } from './exit-codes';
import { expandOptionPrefixes } from './option-prefixes';
import { terminalText } from './output/terminal-text';
import { buildProgram } from './program';

export async function runCli(argv: readonly string[], io: CliIo = {}): Promise<number> {
  const { program, exitCode } = buildProgram(io, 'on-demand');
  const stderr = io.stderr ?? process.stderr;
  try {
    const prepared = expandOptionPrefixes(program, argv);
    // No command at all, as `mlsoapi` alone: the help, on stdout, with status 0 (commander's `help` command does that).
    const args = prepared.commandMissing ? [...prepared.args, 'help'] : prepared.args;
    await program.parseAsync(args, { from: 'user' });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (and the hint to --help).
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    // Work a stop signal ended may throw the signal's own reason (AbortSignal.throwIfAborted): a stop, not a problem.
    if (io.signal?.aborted && error === io.signal.reason) return interruptedExitCode(io.signal);
    // Messages may quote the server (or the user's own odd input): shown with controls escaped.
    if (error instanceof UsageError) {
      stderr.write(`mlso-dl: ${terminalText(error.message)}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof MlsoError) {
      stderr.write(`mlso-dl: ${terminalText(error.message)}\n`);
      return exitCodeFor(error, io.signal);
    }
    const message = error instanceof Error ? error.message : String(error);
    stderr.write(`mlso-dl: unexpected problem: ${terminalText(message)}\nPlease report it with the command you ran.\n`);
    return EXIT_FAILURE;
  }
}
