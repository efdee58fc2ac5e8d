// How core events reach the page: webContents.send on the window's channel of the same name. Events
// for a window that is gone (closing, or not open yet) are dropped; the page asks for a snapshot on load.
import type { BrowserWindow } from 'electron';
import type { EventSink } from '../../src-shared/contract/contract';

export function windowEventSink(currentWindow: () => BrowserWindow | null | undefined): EventSink {
  return (event, payload) => {
    const window = currentWindow();
    if (!window || window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(event, payload);
  };
}
