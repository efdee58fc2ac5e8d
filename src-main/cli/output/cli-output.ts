// Where the command line writes: results on stdout (so they can be piped), everything else on stderr,
// quietened by --quiet and widened by --verbose. Everything passes one gate: control characters (from
// server text) are shown escaped, in JSON's own `\u001b` form, so JSON text stays valid and exact.
import { escapeControlCharacters } from '../../../src-shared/format/display-text';

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

/** Our own line breaks stay; every other control character is escaped. */
function terminalText(text: string): string {
  return escapeControlCharacters(text, { keepNewlines: true });
}
