// The contract over Electron IPC: one ipcMain handler per invoke channel, each answering only the app's
// own page. Channels come from the contract's runtime list, so a new channel needs no edit here.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { INVOKE_CHANNELS, type InvokeChannel, type Result } from '../../src-shared/contract/contract';
import { isAppPageUrl } from './app-locations';

export type ChannelInvoker = (channel: InvokeChannel, args: unknown) => Promise<Result<unknown>>;

/** The one page that may use the contract: the app's own, in the main window. */
export interface TrustedPage {
  /** dist/renderer/index.html */
  rendererIndex: string;
  /** The main window's web contents; none before the window exists (or after it closed). */
  contents(): WebContents | null | undefined;
}

/** Refused as data (like every failure) so the page sees a message rather than an IPC exception. */
function untrustedSenderResult(): Result<never> {
  return { ok: false, error: { kind: 'unsupported', message: 'Only the MLSO Downloader window may use the app.' } };
}

/**
 * Whether the message comes from the app's page in the main window's top frame: not an iframe, not another page
 * the window was somehow made to show, not another web contents (a devtools extension, a window that slipped out).
 */
function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, page: TrustedPage): boolean {
  const frame = event.senderFrame;
  if (!frame || frame.parent !== null) return false;
  const contents = page.contents();
  if (!contents || event.sender !== contents) return false;
  return isAppPageUrl(frame.url, page.rendererIndex);
}

export function registerContractHandlers(ipcMain: Pick<IpcMain, 'handle'>, invoke: ChannelInvoker, page: TrustedPage): void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, (event, args: unknown) => (isTrustedSender(event, page) ? invoke(channel, args) : Promise.resolve(untrustedSenderResult())));
  }
}
