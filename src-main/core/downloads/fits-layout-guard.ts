// Between decompression and the file: lets through only the bytes the FITS headers declare, and fails the
// download when the body is shorter than they declare (fewer bytes, a last block cut short, or fewer HDUs than the
// primary header's NEXTEND), longer, or has a damaged header. It counts data bytes as they pass (no copies) and holds only header
// blocks, so it costs nothing on a 256 MB file.
import { Transform } from 'node:stream';
import { FitsLayoutError, FitsLayoutWalker, type FitsEnding } from '../../../src-science/fits/fits-layout';
import { DownloadError } from '../errors';

export function fitsLayoutGuard(filename: string): Transform {
  const walker = new FitsLayoutWalker();
  const guard: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        walker.write(chunk, pass);
        done();
      } catch (error) {
        // Failing here ends the pipeline, which destroys the decompressor and the socket behind it:
        // nothing more is downloaded or inflated.
        done(error instanceof FitsLayoutError ? layoutError(filename, error) : (error as Error));
      }
    },
    flush(done) {
      const ending = walker.finish();
      done(ending.complete ? null : incomplete(filename, ending));
    },
  });
  const pass = (bytes: Uint8Array): void => {
    guard.push(bytes);
  };
  return guard;
}

function layoutError(filename: string, error: FitsLayoutError): DownloadError {
  switch (error.fault) {
    case 'oversized':
      return new DownloadError('oversized', `${filename} is longer than its FITS headers declare (more than ${error.offset} bytes arrived); it was not saved.`);
    case 'corrupt':
      return new DownloadError('corrupt', `${filename} arrived corrupted (${error.message}); it was not saved.`);
    case 'not-fits':
      return new DownloadError('not-fits', `${filename} is not a FITS file (${error.message}); it was not saved.`);
  }
}

function incomplete(filename: string, ending: Extract<FitsEnding, { complete: false }>): DownloadError {
  return new DownloadError('truncated', `${filename} arrived incomplete (${shortfall(ending)}).`);
}

function shortfall(ending: Extract<FitsEnding, { complete: false }>): string {
  if (ending.inPadding) return `${ending.arrived} of ${ending.declared} bytes: it ends inside its last 2,880-byte block, whose padding is cut short`;
  if (ending.declared !== undefined) return `${ending.arrived} of ${ending.declared} bytes its FITS headers declare`;
  if (ending.declaredHdus !== undefined) return `${ending.hdus} of the ${ending.declaredHdus} HDUs its primary header declares, ${ending.arrived} bytes`;
  if (ending.hdus !== undefined) return `only its primary HDU, which holds no data and announces extensions, ${ending.arrived} bytes`;
  return `it ended inside a FITS header, after ${ending.arrived} bytes`;
}
