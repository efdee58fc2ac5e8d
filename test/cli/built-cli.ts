// The built `mlso-dl` (bin/mlso-dl.js loading dist/, so run `node scripts/build-main.mjs` first) as child
// processes: alone, or writing into a real pipe read by a shell tool. Every process started here is
// tracked, and `stopBuiltCli` kills those still running.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const bin = path.resolve(import.meta.dirname, '../../bin/mlso-dl.js');
const running = new Set<ChildProcess>();
/** Shells started in their own process group: killing the group ends the mlso-dl under them too. */
const groups = new Set<ChildProcess>();

function track(child: ChildProcess): ChildProcess {
  running.add(child);
  child.on('error', () => undefined); // the exit status tells the test what went wrong
  child.on('exit', () => running.delete(child));
  return child;
}

function collect(stream: NodeJS.ReadableStream | null): () => Buffer {
  const chunks: Buffer[] = [];
  stream?.on('error', () => undefined);
  stream?.on('data', (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks);
}

export interface PipedRun {
  /** What the reader at the end of the pipe printed. */
  output: Buffer;
  /** What mlso-dl wrote on stderr. */
  stderr: string;
  /** Exit statuses of mlso-dl and of the reader, as bash's PIPESTATUS reports them. */
  statuses: number[];
}

/**
 * Runs `mlso-dl ARGS | READER` in bash: mlso-dl's stdout is a real pipe (not the socket pair Node gives a
 * child), read by a shell tool such as `cat`, `wc -c` or `head -1`.
 */
export function runPiped(args: readonly string[], reader: string): Promise<PipedRun> {
  const script = `"$@" | ${reader}; echo "\${PIPESTATUS[*]}" >&3`;
  const child = track(spawn('bash', ['-c', script, 'bash', process.execPath, bin, ...args], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], detached: true }));
  groups.add(child);
  child.on('close', () => groups.delete(child));
  const output = collect(child.stdout);
  const stderr = collect(child.stderr);
  const statuses = collect(child.stdio[3] as NodeJS.ReadableStream);
  return new Promise((resolve) =>
    child.on('close', () =>
      resolve({ output: output(), stderr: stderr().toString(), statuses: statuses().toString().trim().split(/\s+/).map(Number) }),
    ),
  );
}

export interface StartedRun {
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit status, or with the signal's name if a signal ended the process. */
  exited: Promise<number | string>;
}

export interface StartOptions {
  /** Options for Node itself, before the script. */
  nodeOptions?: readonly string[];
  /** A file descriptor to give mlso-dl as its stdout, instead of a pipe to the test. */
  stdout?: number;
}

/** Starts mlso-dl with its output captured; the test decides when (and how) it ends. */
export function startBuiltCli(args: readonly string[], options: StartOptions = {}): StartedRun {
  const child = track(spawn(process.execPath, [...(options.nodeOptions ?? []), bin, ...args], { stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'] }));
  collect(child.stdout);
  const stderr = collect(child.stderr);
  const exited = new Promise<number | string>((resolve) => child.on('close', (status, signal) => resolve(status ?? signal ?? 'unknown')));
  return { child, stderr: () => stderr().toString(), exited };
}

/** Kills every process started here that is still running. */
export async function stopBuiltCli(): Promise<void> {
  for (const shell of groups) {
    try {
      process.kill(-shell.pid!, 'SIGKILL');
    } catch {
      // The group has ended already.
    }
  }
  groups.clear();
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
