// Everything the benchmark must undo however it ends: child processes still running and temporary folders.
// main() calls cleanUp() in a finally block; SIGINT/SIGTERM handlers call it too, because a signal would
// otherwise end the process without running finally blocks and leave an emulator listening.
import type { ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';

interface TrackedChild {
  child: ChildProcess;
  /** The signal that asks this child to stop cleanly (the emulator closes its sockets on SIGINT). */
  stopSignal: NodeJS.Signals;
}

const children = new Set<TrackedChild>();
const folders = new Set<string>();
let cleaning: Promise<void> | undefined;

/** Registers a child until it exits. */
export function trackChild(child: ChildProcess, stopSignal: NodeJS.Signals = 'SIGTERM'): void {
  const entry = { child, stopSignal };
  children.add(entry);
  child.once('exit', () => children.delete(entry));
}

export function trackFolder(folder: string): void {
  folders.add(folder);
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Sends the child its stop signal, then SIGKILL if it has not exited after `graceMs`. Resolves once it is gone. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals, graceMs = 5000): Promise<void> {
  if (!isRunning(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Stops every tracked child and removes every tracked folder; safe to call more than once. */
export function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all([...children].map(({ child, stopSignal }) => stopChild(child, stopSignal)));
    await Promise.all([...folders].map((folder) => rm(folder, { recursive: true, force: true }).catch(() => undefined)));
    folders.clear();
  })();
  return cleaning;
}

/** On Ctrl-C or kill: clean up, then exit with the shell's 128+signal status. */
export function cleanUpOnSignals(): void {
  const onSignal = (signal: NodeJS.Signals, status: number) => () => {
    process.stderr.write(`\nbench: ${signal}, stopping child processes and removing temporary folders...\n`);
    void cleanUp().finally(() => process.exit(status));
  };
  process.once('SIGINT', onSignal('SIGINT', 130));
  process.once('SIGTERM', onSignal('SIGTERM', 143));
}
