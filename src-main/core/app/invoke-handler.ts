// Runs a contract handler for a transport (Electron IPC, the web mode's WebSocket): the arguments are checked
// against the channel's schema first, so a handler only ever sees the types the contract promises, and an unknown
// channel, bad arguments or any failure come back as data, never as an exception.
import { isInvokeChannel, type ContractHandlers, type Result } from '../../../src-shared/contract/contract';
import { checkInvokeArguments } from '../../../src-shared/contract/invoke-arguments';
import { displayName } from '../../../src-shared/format/display-text';
import { InvalidInputError, toErrorData } from '../errors';

export async function invokeHandler(handlers: ContractHandlers, channel: string, args: unknown): Promise<Result<unknown>> {
  if (!isInvokeChannel(channel)) {
    // Shortened and escaped: the name comes from the caller, who may send anything.
    return { ok: false, error: { kind: 'internal', message: `Unknown request "${displayName(String(channel))}". Update MLSO Downloader.` } };
  }
  const checked = checkInvokeArguments(channel, args);
  if (!checked.ok) return { ok: false, error: new InvalidInputError(checked.message, checked.field).toData() };
  try {
    const handler = handlers[channel] as (args: unknown) => unknown;
    return { ok: true, value: await handler(checked.value) };
  } catch (error) {
    return { ok: false, error: toErrorData(error) };
  }
}
