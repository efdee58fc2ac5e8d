// Exit statuses of mlso-dl: scripts tell "fix your command" apart from "the server or network failed",
// and a run stopped by a signal reports 128 + that signal's number, as shells do.
import { constants } from 'node:os';
import { MlsoError } from '../core/errors';
import { StateFolderBusyError } from '../core/state/state-folder-busy';

export const EXIT_OK = 0;
/** The server, the network or a download failed. */
export const EXIT_FAILURE = 1;
/** Bad usage or invalid input: nothing was (or should have been) sent. */
export const EXIT_USAGE = 2;
/**
 * Another mlso-dl holds the state folder (a sync still running from last night, say): nothing was done, and trying
 * later may succeed. 75 is EX_TEMPFAIL of sysexits.h, which mail systems and job runners read as "try again later".
 */
const EXIT_BUSY = 75;
/** Interrupted with Ctrl-C (128 + SIGINT), as shells expect. */
const EXIT_INTERRUPTED = 130;

/** The signals that ask mlso-dl to stop: Ctrl-C, `kill`, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export function exitStatusForSignal(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/** The abort reason of the command line's AbortSignal when a signal stopped the run: names the signal. */
export class Interruption extends Error {
  constructor(readonly signal: StopSignal) {
    super(`Stopped by ${signal}.`);
    this.name = 'Interruption';
  }
}

/** The status of a run that stopped because `signal` was aborted: that of the stop signal, 130 if none is known. */
export function interruptedExitCode(signal: AbortSignal | undefined): number {
  const reason: unknown = signal?.reason;
  return reason instanceof Interruption ? exitStatusForSignal(reason.signal) : EXIT_INTERRUPTED;
}

export function exitCodeFor(error: unknown, signal?: AbortSignal): number {
  if (error instanceof StateFolderBusyError) return EXIT_BUSY;
  if (error instanceof MlsoError && error.kind === 'invalid-input') return EXIT_USAGE;
  if (error instanceof MlsoError && error.kind === 'cancelled') return interruptedExitCode(signal);
  return EXIT_FAILURE;
}

/** An error the command line raises about its own arguments. */
export class UsageError extends Error {}
