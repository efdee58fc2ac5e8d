// The README's promise: "gzip is recognised by its bytes (a .gz body, Content-Encoding: gzip, both, or several gzip
// members)". Both layers at once is a .gz body sent with Content-Encoding: gzip on top: what arrives must be the
// FITS file itself, never the inner .gz under the .fts name. One layer of either kind must arrive the same.
import { readFile } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { setImmediate } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { downloadFile } from '../../../src-main/core/downloads/download-file';
import { peekStream, withoutGzipLayers } from '../../../src-main/core/downloads/gzip-layers';
import { listFolder, oddServer, temporaryFolder } from '../../helpers/fixtures';
import { dataUnit, imageHeader } from '../../science/fits/fits-test-files';

const fits = Buffer.concat([imageHeader(32), dataUnit(32 * 32 * 4)]);
fits.fill(7, 2880); // data that is not all zeros, so a layer left in place cannot pass for the file

describe('gzip layers undone by their bytes', () => {
  it('removes one layer, two layers and none, whatever the headers said', async () => {
    const cases: [string, Buffer][] = [
      ['plain', fits],
      ['one layer', gzipSync(fits)],
      ['two layers', gzipSync(gzipSync(fits))],
      ['two layers of several members each', gzipSync(Buffer.concat([gzipSync(fits.subarray(0, 5000)), gzipSync(fits.subarray(5000))]))],
    ];
    for (const [what, body] of cases) {
      const bytes = await buffer(await withoutGzipLayers(Readable.from([body])));
      expect(bytes.equals(fits), what).toBe(true);
    }
  });
});

describe('gzip layers: the edges', () => {
  it('removes three layers at most: a fourth is left for the content checks to refuse', async () => {
    const fourLayers = gzipSync(gzipSync(gzipSync(gzipSync(fits))));
    const bytes = await buffer(await withoutGzipLayers(Readable.from([fourLayers])));
    expect(bytes.equals(gzipSync(fits))).toBe(true);
  });

  it('leaves a body alone that starts with the first byte of the gzip magic only', async () => {
    const body = Buffer.concat([Buffer.from([0x1f, 0x00]), fits]);
    expect((await buffer(await withoutGzipLayers(Readable.from([body])))).equals(body)).toBe(true);
  });

  it('passes on the whole of a plain body that arrives in several pieces', async () => {
    const pieces = [fits.subarray(0, 1), fits.subarray(1, 2000), fits.subarray(2000)];
    expect((await buffer(await withoutGzipLayers(Readable.from(pieces)))).equals(fits)).toBe(true);
  });
});

describe('the first bytes of a body, looked at before it is read', () => {
  it('fails with the error of a body that failed before anyone looked', async () => {
    const body = new PassThrough();
    body.on('error', () => undefined);
    body.destroy(new Error('connection reset'));
    await setImmediate(); // the stream's own events have been emitted by now
    await expect(peekStream(body, 2)).rejects.toThrow('connection reset');
  });

  it('gives nothing for a body closed before anyone looked, without waiting for more', async () => {
    const body = new PassThrough();
    body.destroy();
    await setImmediate(); // the stream's own events have been emitted by now
    const peeked = await peekStream(body, 2);
    expect(peeked.head.length).toBe(0);
    expect(await buffer(peeked.stream)).toEqual(Buffer.alloc(0));
  });

  // Closed without an error, a connection gives 'close' but neither 'readable' nor 'end'; an ended body gives all three.
  it.each([
    ['closed without an error', (body: PassThrough) => body.destroy()],
    ['ended', (body: PassThrough) => body.end()],
  ])('gives what came when the body is %s before the bytes it looks for, and replays it', async (_, finish) => {
    const body = new PassThrough();
    body.write(Buffer.from([0x1f]));
    setTimeout(() => finish(body), 20);
    const peeked = await peekStream(body, 2);
    expect([...peeked.head]).toEqual([0x1f]);
    expect(await buffer(peeked.stream)).toEqual(Buffer.from([0x1f]));
  });
});

describe('a download served with gzip layers', () => {
  const servers: { close: () => Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  async function downloadServed(body: Buffer, headers: Record<string, string>) {
    const server = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length), ...headers });
      res.end(body);
    });
    servers.push(server);
    const folder = await temporaryFolder();
    const client = new MlsoClient({ baseUrl: server.url });
    const result = await downloadFile(client.openDownload.bind(client), { url: `${server.url}/v1/download?filename=x.fts.gz`, filename: 'x.fts', folder });
    return { result, folder, written: await readFile(result.path) };
  }

  it('a .gz body sent with Content-Encoding: gzip (both layers) arrives as the FITS file, fully decompressed', async () => {
    const body = gzipSync(gzipSync(fits));
    const { result, folder, written } = await downloadServed(body, { 'content-type': 'application/gzip', 'content-encoding': 'gzip' });
    expect(written.equals(fits)).toBe(true);
    expect(result).toMatchObject({ bytesReceived: body.length, bytesWritten: fits.length });
    expect(await listFolder(folder)).toEqual(['x.fts']);
  });

  it.each([
    ['a .gz body', { 'content-type': 'application/gzip' }],
    ['Content-Encoding: gzip', { 'content-type': 'application/octet-stream', 'content-encoding': 'gzip' }],
  ])('one layer (%s) arrives as the FITS file too', async (_form, headers) => {
    const body = gzipSync(fits);
    const { result, written } = await downloadServed(body, headers);
    expect(written.equals(fits)).toBe(true);
    expect(result).toMatchObject({ bytesReceived: body.length, bytesWritten: fits.length });
  });
});

// Issue 22 item 6: looking at a body's first bytes must not copy what arrived with them. A socket delivers up to a
// megabyte before the first look; read whole, it was concatenated into a new buffer and put back, for every file.
describe('the first bytes of a body, looked at without copying the rest', () => {
  it('takes only the bytes it looks for and gives back the rest of what arrived as it came', async () => {
    const first = Buffer.alloc(1024 * 1024, 1);
    const second = Buffer.alloc(64 * 1024, 2);
    const body = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
    body.write(first);
    body.write(second);
    body.end();
    const peeked = await peekStream(body, 2);
    expect(peeked.head.length).toBe(2);
    // Read as pipe() and pipeline() read it, chunk by chunk ('data'), not read() whole, which would concatenate.
    const pieces: Buffer[] = [];
    peeked.stream.on('data', (piece: Buffer) => pieces.push(piece));
    await new Promise((resolve) => peeked.stream.once('end', resolve));
    expect(Buffer.concat(pieces).equals(Buffer.concat([first, second]))).toBe(true);
    // The megabyte after the head is the buffer that arrived, not a copy of it.
    expect(pieces.some((piece) => piece.buffer === first.buffer && piece.length >= first.length - 2)).toBe(true);
  });
});
