// A FITS file read from disk piece by piece: band after band of an image through one reused buffer (so a quick look
// of a large image leaves no trail of buffers behind it), with the same pixels as the file read whole.
import { describe, expect, it } from 'vitest';
import { openFitsFile } from '../../src-main/cli/commands/fits-file-on-disk';
import { readFits } from '../../src-science/fits/fits-file';
import { imageReader } from '../../src-science/fits/fits-image';
import { streamedQuicklook } from '../../src-science/fits/streamed-quicklook';
import { imageHdu } from '../science/fits/fits-writer';
import { fitsFileOf } from './fits-test-input';

describe('a FITS file on disk', () => {
  it('reads passing pieces into one buffer it reuses, and gives every other read its own', async () => {
    const bytes = imageHdu({ bitpix: 16, axes: [30, 20], stored: Array.from({ length: 600 }, (_, i) => i - 300) });
    const opened = openFitsFile(await fitsFileOf(bytes));
    try {
      const first = opened.file.read(2880, 100, 'passing');
      const second = opened.file.read(2980, 60, 'passing');
      expect(second.buffer).toBe(first.buffer);
      expect(Array.from(second)).toEqual(Array.from(bytes.subarray(2980, 3040)));
      const kept = opened.file.read(2880, 100);
      const again = opened.file.read(2880, 100);
      expect(kept.buffer).not.toBe(first.buffer);
      expect(again.buffer).not.toBe(kept.buffer);
      expect(Array.from(kept)).toEqual(Array.from(bytes.subarray(2880, 2980)));
    } finally {
      opened.close();
    }
  });

  it('gives the quick look of the file in memory, read band by band through the reused buffer', async () => {
    const stored = Array.from({ length: 37 * 29 }, (_, i) => ((i * 7919) % 1000) - 500);
    const bytes = imageHdu({ bitpix: 32, axes: [37, 29], stored });
    const choice = { percents: [1, 99.5] as const, stretch: 'linear' as const, maxSize: 16 };
    const opened = openFitsFile(await fitsFileOf(bytes));
    try {
      const fromDisk = streamedQuicklook(imageReader(opened.file, 0), choice, 37 * 3);
      const inMemory = streamedQuicklook(imageReader(readFits(bytes, 'image.fits'), 0), choice);
      expect({ ...fromDisk, grey: Array.from(fromDisk.grey) }).toEqual({ ...inMemory, grey: Array.from(inMemory.grey) });
    } finally {
      opened.close();
    }
  });
});
