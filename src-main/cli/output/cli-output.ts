// Where the command line writes: results on stdout (so they can be piped), everything else on stderr,
// quietened by --quiet and widened by --verbose. Everything shown as text passes one gate: control characters
// (from server text) are shown escaped, in JSON's own `\u001b` form, so JSON text stays valid and exact. The
// bytes of a file asked for on stdout (`--out -`) are data, and pass the gate only on their way to a terminal.
import { PacedWriter, type OutputStop } from './paced-writer';
import { terminalText } from './terminal-text';

export interface CliOutputOptions {
  quiet: boolean;
  verbose: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

export class CliOutput {
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  private paced: PacedWriter | undefined;

  constructor(options: CliOutputOptions) {
    this.quiet = options.quiet;
    this.verbose = options.verbose;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  /** A command's result (tables, JSON). */
  result(text: string): void {
    const shown = terminalText(text);
    this.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
  }

  /**
   * A piece of a result written as it is produced (a listing, batch by batch), through the same gate as
   * result(); resolves once stdout can take more. Rejects with OutputStoppedError once stdout can take
   * nothing more, or with the signal's reason when `signal` aborts while the reader is slow.
   */
  resultPart(text: string, signal?: AbortSignal): Promise<void> {
    this.paced ??= new PacedWriter(this.stdout);
    return this.paced.write(terminalText(text), signal);
  }

  /**
   * The bytes of a file the user asked for on standard output (`campaign export --out -`). Data written to a pipe
   * or a file is data: exactly as made (a CSV's CRLF line ends, tabs and bidi characters in its fields). On a
   * terminal only a person reads it, and server text must not drive the terminal: there it is shown as text, through
   * the gate, its CRLF line ends shown as plain line ends. Paced, and stopping, as resultPart().
   */
  data(text: string, signal?: AbortSignal): Promise<void> {
    this.paced ??= new PacedWriter(this.stdout);
    return this.paced.write(this.stdout.isTTY ? terminalText(text.replaceAll('\r\n', '\n')) : text, signal);
  }

  /** Why a result written in pieces had to stop (its reader left, or stdout failed); undefined while it could go on. */
  get resultStop(): OutputStop | undefined {
    return this.paced?.stop;
  }

  /** Informational lines: progress, summaries. Silent with --quiet. */
  info(text: string): void {
    if (!this.quiet) this.stderr.write(`${terminalText(text)}\n`);
  }

  /** Details for --verbose: request URLs, server information. */
  detail(text: string): void {
    if (this.verbose) this.stderr.write(`${terminalText(text)}\n`);
  }

  error(text: string): void {
    this.stderr.write(`${terminalText(text)}\n`);
  }

  get interactive(): boolean {
    return Boolean(this.stderr.isTTY) && !this.quiet;
  }
}

/** A command's result as JSON (--json), indented. */
export function printJson(out: CliOutput, value: unknown): void {
  out.result(JSON.stringify(value, null, 2));
}
