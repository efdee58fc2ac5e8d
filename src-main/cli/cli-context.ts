// What every command gets: a configured client and the output channels.
import { MlsoClient } from '../core/api/mlso-client';
import { CliOutput } from './output/cli-output';

export interface GlobalOptions {
  baseUrl: string;
  apiVersion: string;
  clientName: string;
  verbose?: boolean;
  quiet?: boolean;
}

export interface CliIo {
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Cancels whatever the command is doing (Ctrl-C). */
  signal?: AbortSignal;
}

export interface CliContext {
  client: MlsoClient;
  out: CliOutput;
  signal?: AbortSignal;
}

export function createContext(options: GlobalOptions, io: CliIo): CliContext {
  const out = new CliOutput({
    quiet: Boolean(options.quiet),
    verbose: Boolean(options.verbose),
    ...(io.stdout ? { stdout: io.stdout } : {}),
    ...(io.stderr ? { stderr: io.stderr } : {}),
  });
  const client = new MlsoClient(
    { baseUrl: options.baseUrl, apiVersion: options.apiVersion, clientName: options.clientName },
    { log: (url) => out.detail(`GET ${url}`) },
  );
  return { client, out, signal: io.signal };
}

export function printJson(out: CliOutput, value: unknown): void {
  out.result(JSON.stringify(value, null, 2));
}
