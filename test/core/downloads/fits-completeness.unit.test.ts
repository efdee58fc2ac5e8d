// A file on disk is judged exactly as a download of the same bytes is judged while it streams.
import { open, readdir, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isCompleteFitsFile } from '../../../src-main/core/downloads/fits-completeness';
import { FitsLayoutWalker } from '../../../src-science/fits/fits-layout';
import { temporaryFolder } from '../../helpers/fixtures';
import { dataUnit, header, imageHeader, multiHduFile, primaryHeader } from '../../science/fits/fits-test-files';

const image64 = Buffer.concat([imageHeader(64), dataUnit(64 * 64 * 4)]);

const samples: [string, Buffer, boolean][] = [
  ['a whole image', image64, true],
  ['an image without its final padding (the archive serves whole blocks)', image64.subarray(0, 2880 + 64 * 64 * 4), false],
  ['an image missing a byte of data', image64.subarray(0, 2880 + 64 * 64 * 4 - 1), false],
  ['a header alone that declares data', primaryHeader(10_000), false],
  ['several HDUs with long headers', multiHduFile({ longHeader: true }).bytes, true],
  ['several HDUs, the last without padding', multiHduFile({ unpaddedEnd: true }).bytes, false],
  ['several HDUs, the last data missing', Buffer.concat(multiHduFile().parts.slice(0, 6)), false],
  ['an image followed by zeros', Buffer.concat([image64, Buffer.alloc(5000)]), false],
  [
    'a non-numeric axis length',
    Buffer.concat([
      header([
        ['SIMPLE', true],
        ['BITPIX', 8],
        ['NAXIS', 1],
        ['NAXIS1', 'lots'],
      ]),
      dataUnit(100),
    ]),
    false,
  ],
  [
    'a missing NAXIS',
    header([
      ['SIMPLE', true],
      ['BITPIX', 8],
    ]),
    false,
  ],
  ['text', Buffer.from('{"message": "nope"}'), false],
  ['nothing', Buffer.alloc(0), false],
];

function streamedVerdict(bytes: Buffer): boolean {
  const walker = new FitsLayoutWalker();
  try {
    walker.write(bytes);
    return walker.finish().complete;
  } catch {
    return false;
  }
}

describe('a FITS file on disk', () => {
  it.each(samples)('%s', async (name, bytes, complete) => {
    const file = path.join(await temporaryFolder(), `${name.replace(/\W+/g, '-')}.fts`);
    await writeFile(file, bytes);
    expect(await isCompleteFitsFile(file)).toBe(complete);
    expect(streamedVerdict(bytes)).toBe(complete);
  });
});

describe('judging a large FITS file on disk', () => {
  it('reads its header blocks only, never its data, and lets go of the file each time', async () => {
    const folder = await temporaryFolder();
    const file = path.join(folder, 'large.fts');
    const dataBytes = 512 * 512 * 4;
    await writeFile(file, Buffer.concat([imageHeader(512), dataUnit(dataBytes)]));
    const probe = await open(file, 'r');
    const fileHandleRead = vi.spyOn(Object.getPrototypeOf(probe) as FileHandle, 'read');
    await probe.close();
    const openDescriptors = async (): Promise<number> => (await readdir('/proc/self/fd')).length;
    const before = await openDescriptors();
    try {
      for (let i = 0; i < 20; i += 1) expect(await isCompleteFitsFile(file)).toBe(true);
      const bytesAskedFor = fileHandleRead.mock.calls.reduce((sum, call) => sum + Number((call as unknown[])[2]), 0);
      expect(bytesAskedFor).toBe(20 * 2880);
    } finally {
      fileHandleRead.mockRestore();
    }
    expect(await openDescriptors()).toBe(before);
  });
});
