// The refusal a second run meets while another holds the state folder (state-lock.ts), in a module of its own with
// no database behind it: the command line's exit statuses (loaded at start-up) tell it apart from bad input, so that
// a nightly job can see "still running from last time" in its status alone.
import { MlsoError } from '../errors';

export class StateFolderBusyError extends MlsoError {
  readonly kind = 'invalid-input' as const;
  constructor(
    readonly folder: string,
    readonly pid: number | undefined,
  ) {
    super(
      `Another MLSO Downloader${pid !== undefined ? ` (process ${pid})` : ''} is using the state folder ${folder}. Wait for it to finish, or use another --state-dir.`,
    );
  }
}
