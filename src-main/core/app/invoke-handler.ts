// Runs a contract handler for a transport (Electron IPC, the web mode's WebSocket): an unknown channel
// or any failure comes back as data, never as an exception, so the renderer shows a proper message.
import { isInvokeChannel, type ContractHandlers, type Result } from '../../../src-shared/contract/contract';
import { toErrorData } from '../errors';

export async function invokeHandler(handlers: ContractHandlers, channel: string, args: unknown): Promise<Result<unknown>> {
  if (!isInvokeChannel(channel)) {
    return { ok: false, error: { kind: 'internal', message: `Unknown request "${channel}". Update MLSO Downloader.` } };
  }
  try {
    const handler = handlers[channel] as (args: unknown) => unknown;
    return { ok: true, value: await handler(args) };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}
