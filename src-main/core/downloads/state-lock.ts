// One engine per state folder: two processes sharing a ledger would both take the same jobs. The lock
// is a file holding the owner's pid; a lock whose owner is gone (killed, crashed) is taken over.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MlsoError } from '../errors';

export class StateFolderBusyError extends MlsoError {
  readonly kind = 'invalid-input' as const;
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(`Another MLSO Downloader (process ${pid}) is using the state folder ${folder}. Wait for it to finish, or use another --state-dir.`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface StateLock {
  release(): void;
}

export function lockStateFolder(folder: string): StateLock {
  const file = path.join(folder, 'engine.lock');
  for (let tries = 0; tries < 3; tries += 1) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return {
        release: () => {
          try {
            if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) throw new StateFolderBusyError(folder, owner);
      unlinkSync(file);
    }
  }
  throw new StateFolderBusyError(folder, -1);
}
