// What the one-file download makes of each kind of answer, through a fake connection that hands it exactly the
// status, headers and body bytes a test wants (the mutation pass showed these paths untested): statuses on the
// edges of success, bodies that are not the file, error bodies far longer than anyone needs to read, lengths that
// disagree with what arrived, timers of the stall watchdog, and the file-system errors a write can meet.
import { getEventListeners } from 'node:events';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../../../src-main/core/api/http-transport';
import { downloadFile, type DownloadOptions, type OpenDownload } from '../../../src-main/core/downloads/download-file';
import { openFileSink, type OpenFileSink } from '../../../src-main/core/downloads/file-sink';
import { DiskFullError, DownloadError, NetworkError, ServerError, SessionError } from '../../../src-main/core/errors';
import { listFolder, temporaryFolder } from '../../helpers/fixtures';
import { dataUnit, primaryHeader } from '../../science/fits/fits-test-files';

const FITS = Buffer.concat([primaryHeader(5000), dataUnit(5000)]);

/** A connection that answers every request with `status`, `headers` and `body`. */
function answering(status: number, body: Readable | Buffer | string, headers: HttpResponse<Readable>['headers'] = {}): OpenDownload {
  return async (url) => ({ status, headers, url, data: body instanceof Readable ? body : Readable.from([Buffer.from(body)]) });
}

/** A body that never ends on its own (stopped at 50 MB), counting what was taken from it. */
function endless(piece: string): { body: Readable; taken: () => number } {
  let taken = 0;
  const chunk = Buffer.from(piece.repeat(Math.ceil(16_384 / piece.length)));
  const body = new Readable({
    read() {
      if (taken > 50 * 1024 * 1024) return void this.push(null);
      taken += chunk.length;
      this.push(chunk);
    },
  });
  return { body, taken: () => taken };
}

/** A body that sends `chunks` with `gapMs` between them (or nothing at all after the headers when empty). */
function paced(chunks: readonly Buffer[], gapMs: number): Readable {
  let next = 0;
  return new Readable({
    read() {
      if (next >= chunks.length) return;
      const chunk = chunks[next++]!;
      setTimeout(() => this.push(chunk), gapMs);
      if (next === chunks.length) setTimeout(() => this.push(null), gapMs + 1);
    },
  });
}

async function attempt(open: OpenDownload, options: DownloadOptions = {}, filename = 'answer.fts') {
  const folder = await temporaryFolder();
  const outcome = await downloadFile(open, { url: 'http://127.0.0.1:1/f', filename, folder }, options).then(
    (result): { ok: boolean; result?: unknown; error?: unknown } => ({ ok: true, result }),
    (error: unknown) => ({ ok: false, error }),
  );
  return { ...outcome, folder, left: await listFolder(folder) };
}

describe('statuses', () => {
  it.each([300, 304, 199, 100])('%i is not a success: a server error, nothing saved', async (status) => {
    const outcome = await attempt(answering(status, FITS));
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toBeInstanceOf(ServerError);
    expect(outcome.error).toMatchObject({ status });
    expect(outcome.left).toEqual([]);
  });

  it.each([200, 299])('%i with a FITS body is a success', async (status) => {
    const outcome = await attempt(answering(status, FITS));
    expect(outcome).toMatchObject({ ok: true, left: ['answer.fts'] });
  });

  it.each([401, 403])('%i is a session error, carrying the server message', async (status) => {
    const outcome = await attempt(answering(status, JSON.stringify({ message: 'Not signed in' })));
    expect(outcome.error).toBeInstanceOf(SessionError);
    expect(outcome.error).toMatchObject({ status, serverMessage: 'Not signed in' });
  });

  it('an error body sent gzip-compressed (without saying so) still gives its message; broken gzip gives none', async () => {
    const compressed = await attempt(answering(503, gzipSync(JSON.stringify({ message: 'Down for maintenance' })), { 'retry-after': '7' }));
    expect(compressed.error).toMatchObject({ kind: 'server', status: 503, serverMessage: 'Down for maintenance', retryAfterSeconds: 7 });
    const broken = await attempt(answering(503, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3])));
    expect(broken.error).toBeInstanceOf(ServerError);
    expect((broken.error as ServerError).serverMessage).toBeUndefined();
  });

  it('an error body that arrives in pieces is read whole (up to 64 KB) before its message is taken', async () => {
    const pieces = Readable.from([Buffer.from('{"message":"Down for'), Buffer.from(' maintenance"}')]);
    const outcome = await attempt(answering(503, pieces));
    expect(outcome.error).toMatchObject({ status: 503, serverMessage: 'Down for maintenance' });
    const page = Readable.from([Buffer.from('\n'), Buffer.from('<html>busy</html>')]);
    expect((await attempt(answering(200, page))).error).toMatchObject({ reason: 'error-body' });
  });

  it('an error body that never ends is read only to 64 KB', async () => {
    const { body, taken } = endless('<html>busy</html>');
    const outcome = await attempt(answering(500, body));
    expect(outcome.error).toMatchObject({ kind: 'server', status: 500 });
    expect(taken()).toBeLessThan(1024 * 1024);
  });
});

describe('bodies that are not the file', () => {
  it('a web page after white space is named a web page; text that only mentions one is "not a FITS file"', async () => {
    const page = await attempt(answering(200, '\n\n   <!DOCTYPE html><html><body>Sign in</body></html>'));
    expect((page.error as Error).message).toBe('The server sent a web page instead of answer.fts; the file was not saved.');
    const mention = await attempt(answering(200, 'see <html> for details'));
    expect((mention.error as Error).message).toBe('answer.fts is not a FITS file (it does not begin with "SIMPLE  ="); it was not saved.');
    expect([...page.left, ...mention.left]).toEqual([]);
  });

  it('an empty body, or one of white space only, says so', async () => {
    for (const body of ['', ' \n\t ']) {
      const outcome = await attempt(answering(200, body));
      expect(outcome.error).toMatchObject({ reason: 'not-fits', message: 'The server sent an empty body instead of answer.fts; the file was not saved.' });
    }
  });

  it('a page that never ends is read only as far as the stream buffers hold (some 2 MB), not to its end', async () => {
    const { body, taken } = endless('<html>'.padEnd(100, 'x'));
    const outcome = await attempt(answering(200, body));
    expect(outcome.error).toMatchObject({ reason: 'error-body' });
    expect(taken()).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('lengths', () => {
  it('a body that ends cleanly short of its Content-Length is truncated, with both numbers', async () => {
    const outcome = await attempt(answering(200, FITS, { 'content-length': String(FITS.length + 100) }));
    expect(outcome.error).toBeInstanceOf(DownloadError);
    expect((outcome.error as Error).message).toBe(`answer.fts arrived incomplete (${FITS.length} of ${FITS.length + 100} bytes).`);
    expect(outcome.left).toEqual([]);
  });

  it('progress carries the Content-Length only when it is a plain number', async () => {
    const seen: (number | undefined)[] = [];
    for (const length of [String(FITS.length), `${FITS.length}x`, `x${FITS.length}`, '']) {
      let last: number | undefined = -1;
      const outcome = await attempt(answering(200, FITS, length === '' ? {} : { 'content-length': length }), {
        onProgress: (progress) => (last = progress.bodyLength),
      });
      expect(outcome.ok).toBe(true);
      seen.push(last);
    }
    expect(seen).toEqual([FITS.length, undefined, undefined, undefined]);
  });
});

describe('the stall watchdog', () => {
  it('counts a body that sends nothing after the headers as stalled', async () => {
    const started = Date.now();
    const outcome = await attempt(answering(200, paced([], 0)), { stallTimeoutMs: 200 });
    expect(outcome.error).toMatchObject({ kind: 'network', reason: 'stalled' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('lets a slow body through that never pauses as long as the stall time, however long it takes in all', async () => {
    const pieces = Array.from({ length: 12 }, (_, index) =>
      FITS.subarray(Math.floor((index * FITS.length) / 12), Math.floor(((index + 1) * FITS.length) / 12)),
    );
    const outcome = await attempt(answering(200, paced(pieces, 60)), { stallTimeoutMs: 250 });
    expect(outcome).toMatchObject({ ok: true, left: ['answer.fts'] });
  });

  it('leaves no timer and no abort listener behind once the download is over', async () => {
    const signal = new AbortController().signal;
    const timersBefore = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const outcome = await attempt(answering(200, FITS), { signal, stallTimeoutMs: 600_000 });
    expect(outcome.ok).toBe(true);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length).toBeLessThanOrEqual(timersBefore);
  });
});

/** A sink whose writes fail with `code`. */
function failingWrites(code: string): OpenFileSink {
  return async (file) => {
    const real = await openFileSink(file);
    real.writable.destroy(Object.assign(new Error(`${code}: refused, write`), { code }));
    return real;
  };
}

describe('what the disk and the decoder say', () => {
  it.each(['ENOSPC', 'EDQUOT'])('%s is a full disk', async (code) => {
    const outcome = await attempt(answering(200, FITS), { openSink: failingWrites(code) });
    expect(outcome.error).toBeInstanceOf(DiskFullError);
    expect(outcome.left).toEqual([]);
  });

  it('corrupt compressed data is "corrupt", a stream cut short is "truncated"', async () => {
    const packed = gzipSync(FITS);
    const corrupt = Buffer.from(packed);
    corrupt.fill(0xff, 40, 200);
    const bad = await attempt(answering(200, corrupt));
    expect(bad.error).toMatchObject({ reason: 'corrupt', message: 'answer.fts arrived corrupted (invalid compressed data); it was not saved.' });
    const cut = await attempt(answering(200, packed.subarray(0, packed.length - 30)));
    expect(cut.error).toMatchObject({ reason: 'truncated' });
    expect([...bad.left, ...cut.left]).toEqual([]);
  });

  it.each([['ECONNRESET'], ['EPIPE'], ['ERR_STREAM_PREMATURE_CLOSE']])('%s in the body is a reset connection', async (code) => {
    const body = new Readable({ read() {} });
    body.push(FITS.subarray(0, 3000));
    setTimeout(() => body.destroy(Object.assign(new Error(`${code} happened`), { code })), 20);
    const outcome = await attempt(answering(200, body));
    expect(outcome.error).toBeInstanceOf(NetworkError);
    expect(outcome.error).toMatchObject({ reason: 'reset' });
  });

  it('"aborted" is a reset, ETIMEDOUT a timeout, anything else a reset naming what happened', async () => {
    const ending = (error: Error): OpenDownload => {
      const body = new Readable({ read() {} });
      body.push(FITS.subarray(0, 3000));
      setTimeout(() => body.destroy(error), 20);
      return answering(200, body);
    };
    expect((await attempt(ending(new Error('aborted')))).error).toMatchObject({ kind: 'network', reason: 'reset' });
    expect((await attempt(ending(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })))).error).toMatchObject({ kind: 'network', reason: 'timeout' });
    const other = (await attempt(ending(new Error('the cable was pulled')))).error;
    expect(other).toMatchObject({ kind: 'network', reason: 'reset' });
    expect((other as Error).message).toContain('the cable was pulled');
  });
});
