// The emulator runs in its own process, as `mlso-dl mock-server`, so its CPU time and memory never mix with the
// measured client's. Its /__emulator control endpoints give the benchmark the server's view of each run.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stopChild, trackChild } from './cleanup';
import { describe } from './timed-process';

export interface EmulatorProcess {
  /** e.g. http://127.0.0.1:40697 */
  url: string;
  args: string[];
  child: ChildProcess;
}

/** What the benchmark reads from GET /__emulator/stats (the emulator reports more). */
export interface EmulatorCounters {
  downloadsStarted: number;
  downloadsCompleted: number;
  downloadsAborted: number;
  /** The most download responses in progress at once: the concurrency the client really achieved. */
  peakActiveDownloads: number;
  peakConnections: number;
}

const START_TIMEOUT_MS = 30_000;

export async function startEmulator(cliPath: string, emulatorArgs: string[]): Promise<EmulatorProcess> {
  const args = [cliPath, 'mock-server', '--port', '0', ...emulatorArgs];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // SIGINT is the emulator's Ctrl-C: it closes the server and its sockets, then exits.
  trackChild(child, 'SIGINT');
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const lines = createInterface({ input: child.stdout });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "listening on" line within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      lines.on('line', (line) => {
        const match = /MLSO API emulator listening on (http:\/\/\S+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`it exited (${signal ?? `status ${code}`}) before listening`));
      });
      child.once('error', reject);
    });
    // Keep draining stdout so the emulator never blocks on a full pipe.
    child.stdout.resume();
    return { url, args, child };
  } catch (error) {
    await stopChild(child, 'SIGKILL');
    throw new Error(`The emulator (${describe(process.execPath, args)}) did not start: ${(error as Error).message}\n${stderr.trim()}`);
  }
}

export async function stopEmulator(emulator: EmulatorProcess): Promise<void> {
  await stopChild(emulator.child, 'SIGINT');
}

export async function resetEmulatorStats(emulator: EmulatorProcess): Promise<void> {
  const response = await fetch(`${emulator.url}/__emulator/reset-stats`, { method: 'POST' });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`POST /__emulator/reset-stats answered ${response.status}`);
}

export async function emulatorCounters(emulator: EmulatorProcess): Promise<EmulatorCounters> {
  const response = await fetch(`${emulator.url}/__emulator/stats`);
  if (!response.ok) throw new Error(`GET /__emulator/stats answered ${response.status}`);
  const stats = (await response.json()) as Partial<EmulatorCounters>;
  const number = (key: keyof EmulatorCounters): number => {
    const value = stats[key];
    if (typeof value !== 'number') throw new Error(`/__emulator/stats has no number "${key}"`);
    return value;
  };
  return {
    downloadsStarted: number('downloadsStarted'),
    downloadsCompleted: number('downloadsCompleted'),
    downloadsAborted: number('downloadsAborted'),
    peakActiveDownloads: number('peakActiveDownloads'),
    peakConnections: number('peakConnections'),
  };
}
