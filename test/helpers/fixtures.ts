// Shared test fixtures: an emulator per test file, temporary folders, captured CLI output.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { DEFAULT_EMULATOR_OPTIONS, createEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';

/** Starts an emulator for the whole test file; stats and faults are reset before each test. */
export function useEmulator(options: Partial<EmulatorOptions> = {}): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await createEmulator(options);
  });
  afterEach(() => {
    emulator?.setOptions({ ...DEFAULT_EMULATOR_OPTIONS, ...options });
    emulator?.resetStats();
    emulator?.clearFaults();
    if (emulator) emulator.transformListing = undefined;
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator;
  };
}

const folders: string[] = [];

// Every test file gets its own download ledger, never the user's.
beforeAll(async () => {
  process.env['MLSO_STATE_DIR'] = await temporaryFolder();
});

afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

export async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mlso-test-'));
  folders.push(folder);
  return folder;
}

export async function listFolder(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort();
}

/** A writable that keeps what was written, for asserting on CLI output. */
export class Capture extends Writable {
  text = '';
  isTTY = false;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

/** A throwaway HTTP server for the odd server behaviours the emulator is not meant to have. */
export async function oddServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; close: () => Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs mlso-dl in-process against the emulator, capturing both output streams. */
export function cliAgainst(emulator: () => RunningEmulator): (...args: string[]) => Promise<CliRun> {
  return async (...args) => {
    const stdout = new Capture();
    const stderr = new Capture();
    const status = await runCli(['--base-url', emulator().url, ...args], { stdout, stderr });
    return { status, stdout: stdout.text, stderr: stderr.text };
  };
}
