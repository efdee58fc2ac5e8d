// The guard as a stream stage: what it lets through and how it fails, whatever the chunk sizes.
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { fitsLayoutGuard } from '../../../src-main/core/downloads/fits-layout-guard';
import { DownloadError } from '../../../src-main/core/errors';
import { dataUnit, imageHeader, multiHduFile, primaryHeader, split } from '../../science/fits/fits-test-files';

async function through(bytes: Buffer, size: number): Promise<{ out: Buffer; error?: unknown }> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  const error = await pipeline(Readable.from(split(bytes, size)), fitsLayoutGuard('x.fts'), sink).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { out: Buffer.concat(chunks), ...(error ? { error } : {}) };
}

const image64 = Buffer.concat([imageHeader(64), dataUnit(64 * 64 * 4)]);

describe.each([1, 7, 2881, 65536])('the FITS layout guard, chunks of %i bytes', (size) => {
  it('passes a file of several HDUs through unchanged', async () => {
    const { bytes } = multiHduFile({ longHeader: true });
    const { out, error } = await through(bytes, size);
    expect(error).toBeUndefined();
    expect(out.equals(bytes)).toBe(true);
  });

  it('ends a body longer than declared at the declared end, as oversized', async () => {
    const { out, error } = await through(Buffer.concat([image64, Buffer.from('XTENSIO'), Buffer.alloc(9000)]), size);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ reason: 'oversized' });
    expect(out.equals(image64)).toBe(true);
  });

  it('fails a body shorter than declared as truncated', async () => {
    const { error } = await through(primaryHeader(10_000), size);
    expect(error).toMatchObject({ reason: 'truncated', message: 'x.fts arrived incomplete (2880 of 12880 bytes its FITS headers declare).' });
  });

  it('fails a body cut at an HDU boundary before the extensions its primary header declares, as truncated', async () => {
    const { parts } = multiHduFile({ primaryCards: [['NEXTEND', 3]] });
    const { error } = await through(Buffer.concat(parts.slice(0, 3)), size);
    expect(error).toMatchObject({ reason: 'truncated', message: 'x.fts arrived incomplete (2 of the 4 HDUs its primary header declares, 8640 bytes).' });
  });

  it('fails an empty primary HDU that announces extensions and has none after it, as truncated', async () => {
    const { parts } = multiHduFile();
    const { error } = await through(parts[0]!, size);
    expect(error).toMatchObject({
      reason: 'truncated',
      message: 'x.fts arrived incomplete (only its primary HDU, which holds no data and announces extensions, 2880 bytes).',
    });
  });
});
