// Free space in the download folder, and the check made before a batch starts.
import { statfs } from 'node:fs/promises';
import { humanSize } from '../../../src-shared/format/human-size';
import { MlsoError } from '../errors';

/** Files arrive gzip-compressed; FITS images decompress to about 1.5 times the listed (compressed) size. */
export const DECOMPRESSION_FACTOR = 1.5;

export type FreeSpaceProbe = (folder: string) => Promise<number>;

export const freeSpaceOf: FreeSpaceProbe = async (folder) => {
  const stats = await statfs(folder);
  return stats.bavail * stats.bsize;
};

export class InsufficientSpaceError extends MlsoError {
  readonly kind = 'disk-full' as const;
  constructor(
    readonly folder: string,
    readonly neededBytes: number,
    readonly freeBytes: number,
  ) {
    super(`These files need about ${humanSize(neededBytes)} but only ${humanSize(freeBytes)} is free in ${folder}. Free some space or choose another folder.`);
  }
}
