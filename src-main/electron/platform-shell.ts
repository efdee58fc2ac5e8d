// The platform's dialogs and shell for the core: the native folder picker, the file manager, and the
// system browser (web links only).
import { dialog, shell, type BrowserWindow, type OpenDialogOptions } from 'electron';
import type { PlatformShell } from '../core/app/app-ports';
import { webLinkOrNull } from './web-links';

export function electronPlatformShell(currentWindow: () => BrowserWindow | null | undefined): PlatformShell {
  return {
    async chooseFolder(current) {
      const options: OpenDialogOptions = {
        title: 'Choose the download folder',
        defaultPath: current,
        properties: ['openDirectory', 'createDirectory'],
      };
      const window = currentWindow();
      const result = window && !window.isDestroyed() ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    async openPath(folder) {
      // openPath reports failure as a message rather than by rejecting.
      const problem = await shell.openPath(folder);
      if (problem) throw new Error(`Could not open ${folder}: ${problem}`);
    },
    showItemInFolder(file) {
      shell.showItemInFolder(file);
    },
    async openExternal(url) {
      const link = webLinkOrNull(url);
      if (link === null) throw new Error('Only web (http or https) links are opened.');
      await shell.openExternal(link);
    },
  };
}
