// Catalogue answers are held to an overall deadline and a size cap (as sent and once decoded), so a
// server that trickles, never ends, or sends a gzip bomb cannot stall the client or exhaust its memory.
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { InvalidInputError } from '../../../src-main/core/errors';
import { oddServer } from '../../helpers/fixtures';

const MiB = 1024 * 1024;
const servers: Awaited<ReturnType<typeof oddServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Parameters<typeof oddServer>[0]): Promise<string> {
  const server = await oddServer(handler);
  servers.push(server);
  return server.url;
}

type Outcome = { state: 'resolved'; value: unknown } | { state: 'rejected'; error: { kind?: string; message?: string } } | { state: 'still waiting' };

/** How a request ended, or that it had not ended after `ms` (a generous bound, not a timing assertion). */
async function outcomeWithin(promise: Promise<unknown>, ms: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const waiting = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'still waiting' }), ms);
  });
  const settled = promise.then(
    (value): Outcome => ({ state: 'resolved', value }),
    (error: unknown): Outcome => ({ state: 'rejected', error: error as { kind?: string; message?: string } }),
  );
  try {
    return await Promise.race([settled, waiting]);
  } finally {
    clearTimeout(timer);
  }
}

function entry(index: number, extra = ''): string {
  const name = `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts`;
  return `{"date-obs":"2025-03-24T21:03:00","filename":"${name}","filesize":${1000 + index},"instrument":"kcor","product":"pb","url":"http://example.org/v1/download?filename=${name}.gz"${extra}}`;
}

/** Writes `chunks()` as fast as the client reads it (honouring backpressure), then keeps the socket open without ending. */
function writeThenHold(res: ServerResponse, chunks: Iterator<Buffer | string>): void {
  const pump = (): void => {
    for (let next = chunks.next(); !next.done; next = chunks.next()) {
      if (!res.write(next.value)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('error', () => undefined);
  pump();
}

const listingRequest = { instrument: 'kcor', product: 'pb' };

describe('the overall deadline of a catalogue answer', () => {
  it('stops a listing that trickles in one byte every 200 ms, with a message that says what to do', async () => {
    let socketClosed = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"files":[');
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => {
        clearInterval(timer);
        socketClosed = true;
      });
    });
    // The idle timeout alone never fires: a byte comes every 200 ms.
    const client = new MlsoClient({ baseUrl: url, timeoutMs: 5_000, listingDeadlineMs: 1_500 });
    const outcome = await outcomeWithin(client.files(listingRequest), 1_500 + 8_000);
    expect(outcome.state).toBe('rejected');
    const { error } = outcome as Extract<Outcome, { state: 'rejected' }>;
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      `The server at ${url} did not finish sending the file listing within 1.5 seconds; ` +
        'try again later, narrow the search (fewer dates, or one file per period) or raise the listing time limit.',
    );
    await expect.poll(() => socketClosed).toBe(true);
  });

  it('holds the small endpoints to the deadline too', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"documentation":');
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
    });
    const client = new MlsoClient({ baseUrl: url, timeoutMs: 5_000, listingDeadlineMs: 1_000 });
    const outcome = await outcomeWithin(client.about(), 1_000 + 8_000);
    expect(outcome).toMatchObject({ state: 'rejected', error: { kind: 'network' } });
    expect((outcome as Extract<Outcome, { state: 'rejected' }>).error.message).toBe(
      `The server at ${url} did not finish sending the answer within 1 second; try again later, or check the server address.`,
    );
  });

  it('still tells a cancelled request apart from a late one', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"files":[');
    });
    const client = new MlsoClient({ baseUrl: url, listingDeadlineMs: 60_000 });
    const cancel = new AbortController();
    const pending = client.files(listingRequest, { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 200);
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled' });
  });
});

describe('the size cap of a catalogue answer', () => {
  it('stops a listing that never ends at the cap and closes the connection', async () => {
    let socketClosed = false;
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (socketClosed = true));
      // 40 MB of entries, then silence: a client without a cap keeps waiting for the rest.
      let index = 0;
      let sent = 0;
      writeThenHold(res, {
        next: () => {
          if (sent > 40 * MiB) return { done: true, value: undefined };
          const text = index === 0 ? `{"files":[${entry(index)}` : `,${entry(index)}`;
          index += 1;
          sent += text.length;
          return { done: false, value: text };
        },
      });
    });
    const client = new MlsoClient({ baseUrl: url, timeoutMs: 30_000, maxListingBytes: 2 * MiB });
    const outcome = await outcomeWithin(client.files(listingRequest), 15_000);
    expect(outcome.state).toBe('rejected');
    const { error } = outcome as Extract<Outcome, { state: 'rejected' }>;
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(
      `The file listing from ${url} is larger than the 2 MB limit; ` +
        'narrow the search (fewer dates, or one file per period) or raise the listing size limit.',
    );
    await expect.poll(() => socketClosed).toBe(true);
  });

  it('stops a gzip-encoded answer that inflates past the cap', async () => {
    // 20 MB of entries (each under the parser's own 64 KB limit for one entry) that gzip to a few KB.
    const padded = Array.from({ length: 640 }, (_, index) => entry(index, `,"padding":"${'0'.repeat(32 * 1024)}"`));
    const bomb = gzipSync(`{"instrument":"kcor","product":"pb","files":[${padded.join(',')}]}`);
    expect(bomb.length).toBeLessThan(MiB);
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length }).end(bomb);
    });
    const client = new MlsoClient({ baseUrl: url, maxListingBytes: 2 * MiB });
    const outcome = await outcomeWithin(client.files(listingRequest), 15_000);
    expect(outcome).toMatchObject({ state: 'rejected', error: { kind: 'invalid-response' } });
    expect((outcome as Extract<Outcome, { state: 'rejected' }>).error.message).toMatch(/^The file listing from .* is larger than the 2 MB limit;/);
  });

  it('counts the compressed bytes too: endless empty deflate blocks are stopped at the cap', async () => {
    const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0x03]);
    // An empty stored block (not final) inflates to nothing, so only the bytes as sent can reveal it.
    const emptyBlocks = Buffer.alloc(64 * 1024 * 5);
    for (let offset = 0; offset < emptyBlocks.length; offset += 5) emptyBlocks.set([0x00, 0x00, 0x00, 0xff, 0xff], offset);
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      let sent = 0;
      writeThenHold(res, {
        next: () => {
          if (sent > 12 * MiB) return { done: true, value: undefined };
          const chunk = sent === 0 ? Buffer.concat([gzipHeader, emptyBlocks]) : emptyBlocks;
          sent += chunk.length;
          return { done: false, value: chunk };
        },
      });
    });
    const client = new MlsoClient({ baseUrl: url, timeoutMs: 30_000, maxListingBytes: 2 * MiB });
    const outcome = await outcomeWithin(client.files(listingRequest), 15_000);
    expect(outcome).toMatchObject({ state: 'rejected', error: { kind: 'invalid-response' } });
    expect((outcome as Extract<Outcome, { state: 'rejected' }>).error.message).toMatch(/is larger than the 2 MB limit;/);
  });

  it('accepts a valid listing of exactly the cap, plain or gzip-encoded, and refuses one byte more', async () => {
    const entries = Array.from({ length: 2_000 }, (_, index) => entry(index, index % 2 ? ',"obs-plan":"synoptic"' : ''));
    const body = Buffer.from(`{"instrument":"kcor","product":"pb","files":[${entries.join(',')}],"total_filesize":7,"note":"kept"}`);
    const gzipped = gzipSync(body);
    const url = await serve((req, res) => {
      const encoded = req.url?.includes('/gz/') ?? false;
      res.writeHead(200, { 'content-type': 'application/json', ...(encoded ? { 'content-encoding': 'gzip' } : {}) });
      const payload = encoded ? gzipped : body;
      // Sent in small pieces, as a network delivers it.
      for (let offset = 0; offset < payload.length; offset += 1_000) res.write(payload.subarray(offset, offset + 1_000));
      res.end();
    });
    for (const product of ['pb', 'gz']) {
      const client = new MlsoClient({ baseUrl: url, maxListingBytes: body.length });
      const listing = await client.files({ instrument: 'kcor', product });
      expect(listing.files).toHaveLength(2_000);
      expect(listing).toMatchObject({ instrument: 'kcor', product: 'pb', total_filesize: 7, note: 'kept' });
      expect(listing.files[1]).toMatchObject({ filesize: 1001, 'obs-plan': 'synoptic' });
    }
    const tooSmall = new MlsoClient({ baseUrl: url, maxListingBytes: body.length - 1 });
    await expect(tooSmall.files(listingRequest)).rejects.toMatchObject({
      kind: 'invalid-response',
      message: expect.stringMatching(/is larger than the .* limit/),
    });
  });

  it('holds error bodies and small endpoints to the cap too', async () => {
    const url = await serve((req, res) => {
      const status = req.url?.includes('instruments') ? 500 : 200;
      res.writeHead(status, { 'content-type': 'application/json' }).end(`{"message":"${'x'.repeat(300 * 1024)}"}`);
    });
    const client = new MlsoClient({ baseUrl: url, maxListingBytes: 256 * 1024 });
    await expect(client.about()).rejects.toThrow(`The answer from ${url} is larger than the 256 KB limit; check the server address.`);
    await expect(client.instrumentIds()).rejects.toMatchObject({ kind: 'invalid-response' });
  });
});

describe('answers that would fill the memory below the size cap', () => {
  /** Serves `head`, then `filler` for ever (as fast as the client reads); counts the bytes the client took. */
  async function endless(head: string, filler: string, status = 200): Promise<{ url: string; sent: () => number; closed: () => boolean }> {
    let sent = 0;
    let closed = false;
    const piece = filler.repeat(Math.ceil((64 * 1024) / filler.length));
    const url = await serve((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.on('close', () => (closed = true));
      let first = true;
      writeThenHold(res, {
        next: () => {
          const text = first ? head : piece;
          first = false;
          sent += text.length;
          return { done: false, value: text };
        },
      });
    });
    return { url, sent: () => sent, closed: () => closed };
  }

  it('refuses a 50 MB string in one field of an entry once 64 KB of it are in, and stops reading', async () => {
    const server = await endless(`{"instrument":"kcor","product":"pb","files":[${entry(0)},{"filename":"`, 'x');
    const client = new MlsoClient({ baseUrl: server.url, timeoutMs: 30_000 });
    const outcome = await outcomeWithin(client.files(listingRequest), 15_000);
    expect(outcome).toMatchObject({ state: 'rejected', error: { kind: 'invalid-response' } });
    expect((outcome as Extract<Outcome, { state: 'rejected' }>).error.message).toBe(
      `The server at ${server.url} sent an answer this client does not understand (files[1] is longer than 64 KB, far beyond any file entry). Check the server address and API version.`,
    );
    await expect.poll(server.closed).toBe(true);
    // What the sockets' buffers held when the connection closed, not the 256 MB the listing cap would allow.
    expect(server.sent()).toBeLessThan(16 * MiB);
  });

  it('reads only the beginning of an error body, however long it is', async () => {
    const server = await endless('{"message":"', 'x', 500);
    const client = new MlsoClient({ baseUrl: server.url, timeoutMs: 30_000 });
    const outcome = await outcomeWithin(client.files(listingRequest), 15_000);
    expect(outcome).toMatchObject({ state: 'rejected', error: { kind: 'server' } });
    expect((outcome as Extract<Outcome, { state: 'rejected' }>).error.message).toMatch(/^The server answered 500 for .* without an explanation\.$/);
    await expect.poll(server.closed).toBe(true);
    expect(server.sent()).toBeLessThan(16 * MiB);
  });

  it('holds the small endpoints to 1 MB, whatever the listing limit', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"documentation":"${'d'.repeat(2 * MiB)}","homepage":"h","support":"s","version":"1"}`);
    });
    const client = new MlsoClient({ baseUrl: url, maxListingBytes: 512 * MiB });
    await expect(client.about()).rejects.toThrow(`The answer from ${url} is larger than the 1 MB limit; check the server address.`);
  });
});

describe('the limit settings', () => {
  it('default to 10 minutes and 256 MB', () => {
    expect(new MlsoClient().settings).toMatchObject({ listingDeadlineMs: 600_000, maxListingBytes: 256 * MiB });
  });

  it('refuse values that are not positive numbers', () => {
    for (const wrong of [
      { listingDeadlineMs: 0 },
      { listingDeadlineMs: Number.NaN },
      { maxListingBytes: -1 },
      { maxListingBytes: Infinity },
      { timeoutMs: 0 },
    ]) {
      expect(() => new MlsoClient(wrong), JSON.stringify(wrong)).toThrow(InvalidInputError);
    }
  });
});

describe('a compressed answer', () => {
  const gzipped = gzipSync(`{"instrument":"kcor","product":"pb","files":[${Array.from({ length: 500 }, (_, i) => entry(i)).join(',')}]}`);

  it('that is damaged is reported as a damaged answer, not as a network failure', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('this is not gzip at all');
    });
    await expect(new MlsoClient({ baseUrl: url }).files(listingRequest)).rejects.toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('(the compressed answer is damaged)'),
    });
  });

  it('that is cut off mid-way is a dropped connection', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': gzipped.length });
      res.write(gzipped.subarray(0, gzipped.length >> 1), () => res.destroy());
    });
    await expect(new MlsoClient({ baseUrl: url }).files(listingRequest)).rejects.toMatchObject({ kind: 'network', reason: 'reset' });
  });

  it('in an encoding the client cannot read is refused, naming it', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' }).end('whatever');
    });
    await expect(new MlsoClient({ baseUrl: url }).about()).rejects.toMatchObject({
      kind: 'invalid-response',
      message: expect.stringContaining('the answer is compressed as "zstd", which this client cannot read'),
    });
  });
});
