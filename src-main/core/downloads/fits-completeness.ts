// Judges whether a FITS file on disk is whole, by walking its HDUs' headers. Used to skip files that
// are already complete and to spot the half-written files other tools leave under real names.
import { FITS_BLOCK } from '../../../src-science/fits/fits-header';
import { FitsLayoutError, FitsLayoutWalker } from '../../../src-science/fits/fits-layout';
import { openRegularFile } from '../files/regular-file';

/**
 * True when the file starts as FITS and holds every byte its headers announce, in whole 2,880-byte blocks, and
 * nothing after them; false for what is not a regular file (a FIFO under the name would otherwise be waited on for
 * ever). The same walker judges downloads as they stream, so a file kept by a download is always judged complete
 * here, and a copy cut inside its last block's padding is fetched again, as the download would have refused it.
 */
export async function isCompleteFitsFile(path: string): Promise<boolean> {
  let opened;
  try {
    opened = await openRegularFile(path);
  } catch {
    return false;
  }
  const {
    handle,
    stats: { size },
  } = opened;
  try {
    const walker = new FitsLayoutWalker();
    const block = Buffer.alloc(FITS_BLOCK);
    let offset = 0;
    while (offset < size) {
      // Data units are skipped unread; only header blocks are read.
      const skippable = Math.min(walker.skippableBytes, size - offset);
      if (skippable > 0) {
        walker.skip(skippable);
        offset += skippable;
        continue;
      }
      const { bytesRead } = await handle.read(block, 0, Math.min(FITS_BLOCK, size - offset), offset);
      if (bytesRead === 0) break;
      walker.write(block.subarray(0, bytesRead));
      offset += bytesRead;
    }
    return walker.finish().complete;
  } catch (error) {
    if (error instanceof FitsLayoutError) return false;
    throw error;
  } finally {
    await handle.close();
  }
}
