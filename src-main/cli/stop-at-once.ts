// A stop signal's JavaScript handler runs on the event loop, so it waits for synchronous work to return: seconds
// for the decoding, clipping and encoding of a large image. Work with nothing to undo runs with the stop signals'
// default action instead, so Ctrl-C or SIGTERM ends the process at once (a shell sees 128 + the signal, as for
// any other stop). Around it, the command line's own handlers stay in charge.
import { STOP_SIGNALS } from './exit-codes';

/** Runs `work` so that a stop signal ends the process at once; only for a run that has a stop signal (`signal`). */
export function stopAtOnceDuring<T>(signal: AbortSignal | undefined, work: () => T): T {
  // In-process runs (the tests, a library user) have no process-wide handlers of ours to set aside.
  if (!signal) return work();
  signal.throwIfAborted();
  const handlers = STOP_SIGNALS.map((name) => ({ name, listeners: process.listeners(name) }));
  // With no listener left, Node hands the signal back to its default action (the process ends).
  for (const { name } of handlers) process.removeAllListeners(name);
  try {
    return work();
  } finally {
    for (const { name, listeners } of handlers) for (const listener of listeners) process.on(name, listener);
  }
}
