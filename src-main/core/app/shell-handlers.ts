// What needs the platform's shell (folders, files and links opened outside the app) and the disk's free space.
// In web mode there is no shell: those requests are answered with where to look instead.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import { freeSpaceOf } from '../downloads/disk-space';
import type { DownloadLedger } from '../downloads/download-ledger';
import { InvalidInputError, MlsoError } from '../errors';
import type { PlatformShell } from './app-ports';
import type { SettingsKeeper } from './settings-keeper';

class UnsupportedError extends MlsoError {
  readonly kind = 'unsupported' as const;
}

/** The shell, or a message saying the desktop app can do that and where the files are. */
export function requireShell(shell: PlatformShell | undefined, what: string, folder: string): PlatformShell {
  if (!shell) throw new UnsupportedError(`${what} works in the desktop app. The files are in ${folder}.`);
  return shell;
}

export function shellHandlers(
  shell: PlatformShell | undefined,
  settings: SettingsKeeper,
  ledger: DownloadLedger,
): Pick<ContractHandlers, 'shell:choose-folder' | 'shell:open-folder' | 'shell:show-file' | 'shell:open-external' | 'disk:free-space'> {
  return {
    'shell:choose-folder': ({ current }) => {
      const start = current ?? settings.value.downloadFolder;
      return requireShell(shell, 'Choosing a folder', start).chooseFolder(start);
    },
    'shell:open-folder': async ({ path: folder }) => {
      const target = folder ?? settings.value.downloadFolder;
      const opener = requireShell(shell, 'Opening folders', target);
      await mkdir(target, { recursive: true });
      await opener.openPath(target);
      return null;
    },
    'shell:show-file': ({ id }) => {
      const job = ledger.get(id);
      if (!job) throw new InvalidInputError('That download is no longer in the list.');
      const opener = requireShell(shell, 'Showing files', job.folder);
      if (job.state === 'done') opener.showItemInFolder(job.targetPath);
      else void opener.openPath(job.folder);
      return null;
    },
    'shell:open-external': async ({ url }) => {
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        throw new InvalidInputError(`"${url}" is not a web address.`);
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InvalidInputError('Only web (http or https) links are opened.');
      await requireShell(shell, 'Opening links', settings.value.downloadFolder).openExternal(parsed.href);
      return null;
    },
    'disk:free-space': async ({ folder }) => {
      // The folder may not exist yet: ask about the nearest one that does.
      let probe = path.resolve(folder ?? settings.value.downloadFolder);
      for (;;) {
        try {
          return await freeSpaceOf(probe);
        } catch {
          const parent = path.dirname(probe);
          if (parent === probe) return null;
          probe = parent;
        }
      }
    },
  };
}
