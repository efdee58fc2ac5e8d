// The bridge the preload puts on window: the contract's invoke channels and events, and nothing else.
// Built from the contract's channel lists, so a new channel needs no edit here. The page never sees
// ipcRenderer or an IPC event object (whose `sender` would be ipcRenderer itself).
import type { IpcRenderer, IpcRendererEvent } from 'electron';
import { INVOKE_CHANNELS, isEventChannel, type InvokeChannel, type RawBridge, type Result } from '../../src-shared/contract/contract';

type IpcRendererLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;

export type ChannelInvokers = Readonly<Record<InvokeChannel, (args: unknown) => Promise<Result<unknown>>>>;

function failure(message: string): Result<never> {
  return { ok: false, error: { kind: 'internal', message } };
}

/** One function per invoke channel; a failure of IPC itself comes back as data, like any other. */
export function createChannelInvokers(ipc: IpcRendererLike): ChannelInvokers {
  const invokers = {} as Record<InvokeChannel, (args: unknown) => Promise<Result<unknown>>>;
  for (const channel of INVOKE_CHANNELS) {
    invokers[channel] = async (args) => {
      try {
        return (await ipc.invoke(channel, args)) as Result<unknown>;
      } catch (error) {
        return failure(`The app did not answer "${channel}": ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }
  return Object.freeze(invokers);
}

export function createRawBridge(ipc: IpcRendererLike): RawBridge {
  const invokers = createChannelInvokers(ipc);
  return Object.freeze({
    invoke(channel: string, args: unknown): Promise<Result<unknown>> {
      const invoker = Object.hasOwn(invokers, channel) ? invokers[channel as InvokeChannel] : undefined;
      return invoker ? invoker(args) : Promise.resolve(failure(`Unknown request "${String(channel)}".`));
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (!isEventChannel(event) || typeof listener !== 'function') return () => undefined;
      const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipc.on(event, forward);
      return () => {
        ipc.removeListener(event, forward);
      };
    },
  });
}
