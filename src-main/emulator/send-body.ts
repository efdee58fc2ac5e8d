// Writes a download body: paced by the bandwidth limit, honouring backpressure, stopping quietly when the client
// goes away, and able to cut the body short the ways real networks and servers do.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerResponse } from 'node:http';
import type { Pacer } from './throttle';

export type CutAction = 'reset' | 'truncate' | 'stall';
export interface Cut {
  atByte: number;
  action: CutAction;
}

/** completed: the whole body was handed to the OS; aborted: the client left first; cut: a planned cut happened. */
export type BodyOutcome = 'completed' | 'aborted' | 'cut';

// A stalled response keeps its socket open this long (or until the client gives up).
const STALL_MS = 10 * 60 * 1000;

export async function sendBody(res: ServerResponse, source: Iterable<Buffer> | AsyncIterable<Buffer>, pacer: Pacer, cut?: Cut): Promise<BodyOutcome> {
  const gone = new AbortController();
  const onClose = (): void => gone.abort();
  res.once('close', onClose);
  let sent = 0;
  let flushed: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of source) {
      for (let offset = 0; offset < chunk.length;) {
        if (gone.signal.aborted) return 'aborted';
        let piece = chunk.subarray(offset, offset + pacer.chunkSize());
        if (cut) piece = piece.subarray(0, Math.max(0, cut.atByte - sent));
        if (piece.length > 0) {
          await pacer.take(piece.length, gone.signal);
          if (gone.signal.aborted) return 'aborted';
          let ok = true;
          flushed = new Promise((resolve) => {
            ok = res.write(piece, () => resolve());
          });
          sent += piece.length;
          offset += piece.length;
          if (!ok) await once(res, 'drain', { signal: gone.signal }).catch(() => undefined);
        }
        if (cut && sent >= cut.atByte) return await performCut(res, cut.action, flushed, gone.signal);
      }
    }
    // The body was shorter than the planned cut (the size was an estimate): cut at the very end instead.
    if (cut) return await performCut(res, cut.action, flushed, gone.signal);
    if (gone.signal.aborted) return 'aborted';
    res.end();
    await once(res, 'finish', { signal: gone.signal }).catch(() => undefined);
    return gone.signal.aborted && !res.writableFinished ? 'aborted' : 'completed';
  } catch {
    // The body could not be produced (or the stream broke): drop the connection, the client sees a failure.
    res.destroy();
    return 'aborted';
  } finally {
    res.off('close', onClose);
    gone.abort();
  }
}

async function performCut(res: ServerResponse, action: CutAction, flushed: Promise<void>, gone: AbortSignal): Promise<BodyOutcome> {
  if (gone.aborted) return 'aborted';
  switch (action) {
    case 'truncate':
      // The response was sent without Content-Length, so ending here is a clean end of an incomplete body.
      res.end();
      break;
    case 'reset': {
      // Let what was written reach the kernel first, so the client really receives part of the body.
      await Promise.race([flushed, once(res, 'close').catch(() => undefined), sleep(1000, undefined, { ref: false })]);
      const socket = res.socket;
      if (socket && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else res.destroy();
      break;
    }
    case 'stall':
      await sleep(STALL_MS, undefined, { signal: gone, ref: false }).catch(() => undefined);
      res.destroy();
      break;
  }
  return 'cut';
}
