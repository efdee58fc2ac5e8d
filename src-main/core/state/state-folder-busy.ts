// The refusal a second run meets while another holds the state folder (state-lock.ts), in a module of its own with
// no database behind it: the command line's exit statuses (loaded at start-up) tell it apart from bad input, so that
// a nightly job can see "still running from last time" in its status alone.
import { MlsoError } from '../errors';

/** Who holds the state folder, as far as its pid and holder files say. */
export interface StateHolder {
  pid?: number;
  /** What the program is, in a few words: "the desktop app", "web mode", "mlso-dl campaign sync". */
  program?: string;
}

/** The holder as every message names it, with what is known: "another MLSO Downloader (web mode, process 4242)". */
export function describeHolder(holder: StateHolder): string {
  const known = [holder.program, holder.pid !== undefined ? `process ${holder.pid}` : undefined].filter(Boolean).join(', ');
  return `another MLSO Downloader${known ? ` (${known})` : ''}`;
}

/** What a refused run may do, unless its front end says better (the command line's --wait). */
const DEFAULT_ADVICE = 'Wait for it to finish, or use another --state-dir.';

export class StateFolderBusyError extends MlsoError {
  readonly kind = 'invalid-input' as const;
  constructor(
    readonly folder: string,
    readonly holder: StateHolder,
    readonly advice: string = DEFAULT_ADVICE,
  ) {
    const who = describeHolder(holder);
    super(`${who.charAt(0).toUpperCase()}${who.slice(1)} is using the state folder ${folder}. ${advice}`);
  }
}
