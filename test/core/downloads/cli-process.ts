// Runs the real `mlso-dl` executable (bin/mlso-dl.js, which loads the built dist/) as a child process,
// for tests of what one run leaves in the state folder for the next. Every child started here is
// tracked, and `killAll` ends those still alive.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEMO_EMAIL } from '../../../src-main/emulator';

const bin = path.resolve(import.meta.dirname, '../../../bin/mlso-dl.js');
const started = new Set<ChildProcess>();
/** Grandchildren (downloads under a shell): not ChildProcess objects of ours, so killed by pid. */
const grandchildren = new Set<number>();

export interface DownloadRun {
  baseUrl: string;
  window: { 'start-date': string; 'end-date': string };
  folder: string;
  stateFolder: string;
}

/** Arguments of `mlso-dl files --download` for one listing of the emulator. */
function downloadArgs(run: DownloadRun): string[] {
  return ['--base-url', run.baseUrl, 'files', '-i', 'kcor', '-p', 'pb', '-s', run.window['start-date'], '-e', run.window['end-date'],
    '--download', '-u', DEMO_EMAIL, '-o', run.folder, '--state-dir', run.stateFolder];
}

function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.on('error', () => undefined); // the exit status tells the test what went wrong
  child.on('exit', () => started.delete(child));
  return child;
}

/** Runs a download to its end; resolves with the exit status and what was written. */
export function runDownload(run: DownloadRun): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = track(spawn(process.execPath, [bin, ...downloadArgs(run)], { stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

/**
 * Starts a download whose parent never reaps it: a shell that starts `mlso-dl` in the background and
 * then becomes `sleep` (exec), which never waits for children. Killed, the download stays a zombie, as a
 * run under `npx` does in a container without an init. Resolves with the download's pid.
 */
export async function startUnreapedDownload(run: DownloadRun): Promise<{ pid: number; parent: ChildProcess }> {
  const parent = track(
    spawn('/bin/sh', ['-c', '"$@" >/dev/null 2>&1 & echo $!; exec sleep 600', 'sh', process.execPath, bin, ...downloadArgs(run)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  );
  const pid = await new Promise<number>((resolve, reject) => {
    let text = '';
    parent.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    parent.on('exit', () => reject(new Error('the shell ended before starting the download')));
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

/** Kills every child started here that is still running (the parents of unreaped downloads included). */
export async function killAll(): Promise<void> {
  for (const pid of grandchildren) {
    // Only a process still running our executable: the pid may have been reused since.
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(bin)) process.kill(pid, 'SIGKILL');
  }
  grandchildren.clear();
  await Promise.all(
    [...started].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

export async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
