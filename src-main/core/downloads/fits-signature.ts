// A FITS file begins with the card `SIMPLE  =` (FITS standard 4.0, section 4.4.1.1); anything else
// arriving where a file was due is an error body, never data.

export const FITS_SIGNATURE = 'SIMPLE  =';
export const FITS_BLOCK_SIZE = 2880;

export function startsWithFitsSignature(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, FITS_SIGNATURE.length)).toString('latin1') === FITS_SIGNATURE;
}
