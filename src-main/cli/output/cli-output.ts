// Where the command line writes: results on stdout (so they can be piped), everything else on stderr,
// quietened by --quiet and widened by --verbose. Everything passes one gate: control characters (from
// server text) are shown escaped, in JSON's own `\u001b` form, so JSON text stays valid and exact.
import { PacedWriter, type OutputStop } from './paced-writer';
import { terminalText } from './terminal-text';

export interface CliOutputOptions {
  quiet: boolean;
  verbose: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

export class CliOutput {
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly stdout: NodeJS.WritableStream;
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
