// A FITS file named on the command line, opened and read piece by piece instead of whole: its headers when it is
// opened, then whatever a command decodes (a band of an image's rows at a time). So `quicklook` of a 2 GB image
// holds a few megabytes of it at once, and `header` reads its header blocks alone. Only a regular file is read (a
// device such as /dev/zero or a FIFO has no end), never more bytes than it had when opened, and every problem is
// one UsageError line naming the file.
import { closeSync, readSync, type Stats } from 'node:fs';
import { FitsReadError, readFitsFrom, type FitsFile, type FitsRead } from '../../../src-science/fits/fits-file';
import { NotRegularFileError, openRegularFileSync } from '../../core/files/regular-file';
import { UsageError } from '../exit-codes';
import { readProblem } from './file-problems';
import { asUsageError } from './fits-file-input';

export interface OpenFitsFile {
  file: FitsFile;
  close: () => void;
}

/** Opens `path` and reads its headers; `close` when done (reads after it fail). */
export function openFitsFile(path: string): OpenFitsFile {
  // A link the user named is followed (they named it); what it leads to must be a regular file.
  let descriptor: number;
  let info: Stats;
  try {
    ({ descriptor, stats: info } = openRegularFileSync(path));
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw new UsageError(`Cannot read ${path}: ${readProblem(error)}.`);
    if (error.isFolder) throw new UsageError(`Cannot read ${path}: it is a folder, not a file.`);
    throw new UsageError(`${path} is not a regular file; give the path of a FITS file.`);
  }
  try {
    // A new buffer for each band of an image would leave tens of megabytes outside the heap between collections.
    let reused = new Uint8Array(0);
    const read: FitsRead = (offset, length, passing) => {
      if (passing && reused.length < length) reused = new Uint8Array(length);
      const bytes = passing ? reused.subarray(0, length) : new Uint8Array(length);
      let filled = 0;
      while (filled < length) {
        let count: number;
        try {
          count = readSync(descriptor, bytes, filled, length - filled, offset + filled);
        } catch (error) {
          throw new UsageError(`Cannot read ${path}: ${readProblem(error)}.`);
        }
        // The file was cut while being read: the reader's own words for a file that ends early.
        if (count === 0) throw new FitsReadError(path, `became shorter while it was read: it ends before byte ${offset + length}`);
        filled += count;
      }
      return bytes;
    };
    const file = readFitsFrom({ size: info.size, read }, path);
    return { file, close: () => closeSync(descriptor) };
  } catch (error) {
    closeSync(descriptor);
    throw asUsageError(error);
  }
}
