// A command that writes the state folder while another program holds it (the app, web mode, a sync): without --wait
// it stops at once with status 75, naming that program; with --wait it says once that it waits, and runs as soon as
// the folder is free (a nightly sync queues behind the app). Ctrl-C or SIGTERM ends the wait at once.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onFolder } from '../../core/folder-errors';
import { describeHolder, StateFolderBusyError, type StateHolder } from '../../core/state/state-folder-busy';
import type { CliContext } from '../cli-context';

/** What a run refused for a held state folder may do, said after who holds it. */
const ADVICE = 'Add --wait to run once it has finished, or use another --state-dir.';

/**
 * SQLite cannot wait for the lock without blocking the thread (its busy handler sleeps inside the call, out of reach
 * of Ctrl-C), so the lock is tried again at this pace: a try is one open of a small file.
 */
const RETRY_MS = 250;

/**
 * `open` (which takes the state folder's lock), run again until the folder is free when `wait`; without it a held
 * folder stops the run with the command line's advice. A signal while waiting rejects with its reason.
 */
export async function whenStateFolderFree<T>(context: CliContext, wait: boolean, open: () => Promise<T>): Promise<T> {
  let toldOf: StateHolder | undefined;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!(error instanceof StateFolderBusyError)) throw error;
      if (!wait) throw new StateFolderBusyError(error.folder, error.holder, ADVICE);
      // Said again only when another program took the folder meanwhile.
      if (toldOf === undefined || toldOf.pid !== error.holder.pid) {
        toldOf = error.holder;
        context.out.info(`Waiting for ${describeHolder(error.holder)} to finish with the state folder ${error.folder} (Ctrl-C stops waiting).`);
      }
      await pauseOrStop(context);
    }
  }
}

/**
 * Waits until the state folder is free, without keeping it: for a command that starts other work (a listing) before
 * it opens the folder, so that this work does not wait meanwhile. The opening itself still goes through
 * whenStateFolderFree, for another program may take the folder in between.
 */
export async function untilStateFolderFree(context: CliContext, stateFolder: string): Promise<void> {
  const folder = path.resolve(stateFolder);
  // SQLite loads only here: `files --download` loads it while its listing is on its way, unless it must wait first.
  const { lockStateFolder } = await import('../../core/state/state-lock');
  await whenStateFolderFree(context, true, async () => {
    // Made as the opening would make it: a folder that does not exist yet is free.
    await onFolder(folder, 'state', 'create', () => mkdir(folder, { recursive: true }));
    lockStateFolder(folder).release();
  });
}

async function pauseOrStop({ signal, out }: CliContext): Promise<void> {
  try {
    await sleep(RETRY_MS, undefined, signal ? { signal } : {});
  } catch (error) {
    if (!signal?.aborted) throw error;
    out.error('Interrupted while waiting for the state folder: nothing was done.');
    // The stop signal's own reason, which the command line reads as an interruption (128 + the signal).
    throw signal.reason;
  }
}
