// The contract over Electron IPC: one ipcMain handler per invoke channel, each answering only the app's
// own page. Channels come from the contract's runtime list, so a new channel needs no edit here.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { INVOKE_CHANNELS, type InvokeChannel, type Result } from '../../src-shared/contract/contract';
import { isAppPageUrl } from './app-locations';

export type ChannelInvoker = (channel: InvokeChannel, args: unknown) => Promise<Result<unknown>>;

/** Refused as data (like every failure) so the page sees a message rather than an IPC exception. */
export const UNTRUSTED_SENDER_RESULT: Result<never> = Object.freeze({
  ok: false,
  error: Object.freeze({ kind: 'unsupported', message: 'Only the MLSO Downloader window may use the app.' }),
});

/** Whether the message comes from the app's page in its top frame (not an iframe, not another page). */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, rendererIndex: string): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  return isAppPageUrl(frame.url, rendererIndex);
}

export function registerContractHandlers(ipcMain: Pick<IpcMain, 'handle'>, invoke: ChannelInvoker, rendererIndex: string): void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, (event, args: unknown) =>
      isTrustedSender(event, rendererIndex) ? invoke(channel, args) : Promise.resolve(UNTRUSTED_SENDER_RESULT),
    );
  }
}

