// What a run left on disk, checked before its numbers count: exactly the expected files, each of the right kind.
// A wrong count is an error, not a row: a fast run that lost a file is no result.
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

const FITS_START = 'SIMPLE  =';
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export interface FolderCheck {
  files: number;
  totalBytes: number;
  bytesByName: Map<string, number>;
  /** Hidden entries left behind (temporary files of an unclean finish); reported, not fatal. */
  leftovers: string[];
}

/** mlso-dl's output: the listed names, decompressed FITS. */
export async function checkFitsFolder(folder: string, expectedNames: readonly string[], minBytesEach = 1): Promise<FolderCheck> {
  return checkFolder(folder, expectedNames, async (file, bytes) => {
    const head = await readHead(file, FITS_START.length);
    if (head.toString('latin1') !== FITS_START) return `does not start with "${FITS_START}"`;
    if (bytes < minBytesEach) return `has ${bytes} bytes, expected at least ${minBytesEach}`;
    return undefined;
  });
}

/** A baseline's output: the raw gzip bodies, each exactly as long as measured on the wire when that is known. */
export async function checkGzipFolder(folder: string, expectedNames: readonly string[], expectedBytes?: ReadonlyMap<string, number>): Promise<FolderCheck> {
  return checkFolder(folder, expectedNames, async (file, bytes) => {
    const expected = expectedBytes?.get(path.basename(file));
    if (expected !== undefined && bytes !== expected) return `has ${bytes} bytes, the body is ${expected}`;
    const head = await readHead(file, 2);
    return head.equals(GZIP_MAGIC) ? undefined : 'is not gzip';
  });
}

async function checkFolder(
  folder: string,
  expectedNames: readonly string[],
  checkFile: (file: string, bytes: number) => Promise<string | undefined>,
): Promise<FolderCheck> {
  const entries = await readdir(folder);
  const visible = entries.filter((name) => !name.startsWith('.'));
  const leftovers = entries.filter((name) => name.startsWith('.'));
  const expected = new Set(expectedNames);
  const missing = expectedNames.filter((name) => !visible.includes(name));
  const extra = visible.filter((name) => !expected.has(name));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `${folder} holds ${visible.length} files, expected ${expectedNames.length}` +
        (missing.length ? `; missing ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}` : '') +
        (extra.length ? `; unexpected ${extra.slice(0, 5).join(', ')}${extra.length > 5 ? ', ...' : ''}` : ''),
    );
  }
  let totalBytes = 0;
  const bytesByName = new Map<string, number>();
  for (const name of visible) {
    const file = path.join(folder, name);
    const { size } = await stat(file);
    const problem = await checkFile(file, size);
    if (problem) throw new Error(`${file} ${problem}`);
    totalBytes += size;
    bytesByName.set(name, size);
  }
  return { files: visible.length, totalBytes, bytesByName, leftovers };
}

async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
