// Exit statuses of mlso-dl: scripts tell "fix your command" apart from "the server or network failed".
import { MlsoError } from '../core/errors';

export const EXIT_OK = 0;
/** The server, the network or a download failed. */
export const EXIT_FAILURE = 1;
/** Bad usage or invalid input: nothing was (or should have been) sent. */
export const EXIT_USAGE = 2;
/** Interrupted with Ctrl-C (128 + SIGINT), as shells expect. */
export const EXIT_INTERRUPTED = 130;

export function exitCodeFor(error: unknown): number {
  if (error instanceof MlsoError && error.kind === 'invalid-input') return EXIT_USAGE;
  if (error instanceof MlsoError && error.kind === 'cancelled') return EXIT_INTERRUPTED;
  return EXIT_FAILURE;
}

/** An error the command line raises about its own arguments. */
export class UsageError extends Error {}
