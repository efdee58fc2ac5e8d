// What a campaign needs to know of a file on disk: its size (absent when it is not a file) and its SHA-256, read as
// a stream (campaign files can be hundreds of megabytes).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}

export async function sizeOfFile(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
