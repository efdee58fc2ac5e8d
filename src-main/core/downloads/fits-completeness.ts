// Judges whether a FITS file on disk is whole, by walking its HDUs' headers. Used to skip files that
// are already complete and to spot the half-written files other tools leave under real names.
import { open } from 'node:fs/promises';
import { FITS_BLOCK, dataUnitBytes, paddedToBlocks, parseFitsHeader } from '../../../src-shared/fits/fits-header';
import { startsWithFitsSignature } from './fits-signature';

const MAX_HEADER_BLOCKS = 1000;

/**
 * True when the file starts as FITS and holds every byte its headers announce. The final padding of
 * the last data unit is not demanded: some servers omit it, and its absence loses no data.
 */
export async function isCompleteFitsFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    const { size } = await handle.stat();
    let offset = 0;
    let first = true;
    while (offset < size) {
      const header = await readHeaderAt(handle, offset, size);
      if (!header) return false;
      if (first && !startsWithFitsSignature(header.bytes)) return false;
      first = false;
      const data = dataUnitBytes(header.parsed);
      const end = offset + header.parsed.headerBytes + data;
      if (end > size) return false;
      offset = offset + header.parsed.headerBytes + paddedToBlocks(data);
    }
    return !first;
  } finally {
    await handle.close();
  }
}

async function readHeaderAt(handle: Awaited<ReturnType<typeof open>>, offset: number, size: number) {
  const available = size - offset;
  // Most headers fit one block; read more only while END has not turned up.
  for (let blocks = 1; blocks <= MAX_HEADER_BLOCKS; blocks *= 2) {
    const length = Math.min(blocks * FITS_BLOCK, available);
    const bytes = Buffer.alloc(length);
    await handle.read(bytes, 0, length, offset);
    const parsed = parseFitsHeader(bytes);
    if (parsed) return { parsed, bytes };
    if (length === available) return null;
  }
  return null;
}
