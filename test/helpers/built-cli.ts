// The built `mlso-dl` (bin/mlso-dl.js loading dist/, so run `node scripts/build-main.mjs` first) as child
// processes, the way users run it: alone, writing into a real pipe read by a shell tool, or under a parent
// that never reaps it. Every process started here is tracked, and `stopBuiltCli` kills those still running.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { waitFor } from './wait-for';

export const bin = path.resolve(import.meta.dirname, '../../bin/mlso-dl.js');
const running = new Set<ChildProcess>();
/** Shells started in their own process group: killing the group ends the mlso-dl under them too. */
const groups = new Set<ChildProcess>();
/** mlso-dl processes under a shell that never reaps them: not ChildProcess objects of ours, so killed by pid. */
const grandchildren = new Set<number>();

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
    child.on('close', () => resolve({ output: output(), stderr: stderr().toString(), statuses: statuses().toString().trim().split(/\s+/).map(Number) })),
  );
}

export interface FinishedRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs mlso-dl to its end with its output captured; `env`, when given, is its whole environment. */
export function runBuiltCli(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<FinishedRun> {
  const child = track(spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) }));
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout: stdout().toString(), stderr: stderr().toString() })));
}

export interface StartedRun {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit status, or with the signal's name if a signal ended the process. */
  exited: Promise<number | string>;
}

export interface StartOptions {
  /** Options for Node itself, before the script. */
  nodeOptions?: readonly string[];
  /** A file descriptor to give mlso-dl as its stdout, instead of a pipe to the test. */
  stdout?: number;
  /** mlso-dl's whole environment (the test's own by default). */
  env?: NodeJS.ProcessEnv;
}

/** Starts mlso-dl with its output captured; the test decides when (and how) it ends. */
export function startBuiltCli(args: readonly string[], options: StartOptions = {}): StartedRun {
  const child = track(
    spawn(process.execPath, [...(options.nodeOptions ?? []), bin, ...args], {
      stdio: ['ignore', options.stdout ?? 'pipe', 'pipe'],
      ...(options.env ? { env: options.env } : {}),
    }),
  );
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const exited = new Promise<number | string>((resolve) => child.on('close', (status, signal) => resolve(status ?? signal ?? 'unknown')));
  return { child, stdout: () => stdout().toString(), stderr: () => stderr().toString(), exited };
}

/**
 * Starts `mlso-dl mock-server` on a free port and resolves with the first line it prints (the address it listens
 * on); `stopBuiltCli` ends it. Fails with its stderr if it exits first.
 */
export async function startMockServer(args: readonly string[] = []): Promise<{ banner: string; stderr: () => string }> {
  const run = startBuiltCli(['mock-server', '--port', '0', ...args]);
  let ended = false;
  void run.exited.then(() => (ended = true));
  await waitFor(() => ended || run.stdout().includes('\n'), 'the emulator to print its address');
  if (!run.stdout().includes('\n')) throw new Error(`mock-server exited before printing its address: ${run.stderr()}`);
  return { banner: run.stdout().split('\n')[0]!, stderr: run.stderr };
}

/**
 * Starts mlso-dl under a parent that never reaps it: a shell that starts it in the background and then
 * becomes `sleep` (exec), which never waits for children. Killed, mlso-dl stays a zombie, as a run under
 * `npx` does in a container without an init. Resolves with mlso-dl's pid.
 */
export async function startUnreaped(args: readonly string[]): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = track(
    spawn('/bin/sh', ['-c', '"$@" >/dev/null 2>&1 & echo $!; exec sleep 600', 'sh', process.execPath, bin, ...args], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const pid = await new Promise<number>((resolve, reject) => {
    let text = '';
    parent.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    parent.on('exit', () => reject(new Error('the shell ended before starting mlso-dl')));
  });
  grandchildren.add(pid);
  return { pid, parent };
}

/** The process state letter from /proc/PID/stat (R, S, Z, ...), or undefined once the process is gone. */
export async function processState(pid: number): Promise<string | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** Kills every process started here that is still running (unreaped ones and those under a shell included). */
export async function stopBuiltCli(): Promise<void> {
  for (const pid of grandchildren) {
    // Only a process still running our executable: the pid may have been reused since.
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(bin)) process.kill(pid, 'SIGKILL');
  }
  grandchildren.clear();
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
