// A FITS file begins with the card `SIMPLE  =` (FITS standard 4.0, section 4.4.1.1); anything else
// arriving where a file was due is an error body, never data.
import { PRIMARY_SIGNATURE } from '../../../src-science/fits/fits-header';

export function startsWithFitsSignature(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, PRIMARY_SIGNATURE.length)).toString('latin1') === PRIMARY_SIGNATURE;
}
