// One sample of a 64-bit integer image read exactly: decoded into a double (fits-image.ts) it keeps 53 bits, so
// 2982553151490137914 would read as 2982553151490137856. A single pixel's readout can afford a BigInt.
import type { FitsFile } from './fits-file';

/**
 * The stored integer of pixel (x, y) (counted from 1, as FITS counts; y = 1 is the first row) of HDU `index`'s first
 * plane, before BSCALE and BZERO; undefined unless the HDU is an uncompressed 64-bit integer image.
 */
export function storedInteger64(file: FitsFile, index: number, x: number, y: number): bigint | undefined {
  const hdu = file.hdus[index];
  if (!hdu?.isImage || hdu.compression || hdu.bitpix !== 64) return undefined;
  const width = hdu.axes[0] ?? 1;
  const bytes = file.read(hdu.dataOffset + ((y - 1) * width + (x - 1)) * 8, 8);
  return new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0);
}
