// The real gzip body size of every benchmark file, counted off the wire. The listing's `filesize` is only an
// estimate (and sometimes 0), and the link limit needs the bytes the link really has to carry.
// Fetching every file once also fills the emulator's body cache, so no measured run pays for compressing them.
import { getRawBody, keepAliveAgent, mapWithConcurrency } from './raw-http';
import type { ListedFile } from './cli-summaries';

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export interface WireSizes {
  /** Body bytes per listed file name. */
  byFile: Map<string, number>;
  totalBytes: number;
  meanBytes: number;
}

export async function measureWireSizes(files: readonly ListedFile[], cookie: string, connections: number): Promise<WireSizes> {
  const agent = keepAliveAgent(connections);
  try {
    const sizes = await mapWithConcurrency(files, connections, async (file) => {
      const { bytes, head } = await getRawBody(file.url, cookie, agent);
      if (!head.subarray(0, 2).equals(GZIP_MAGIC)) throw new Error(`${file.filename}: the download is not gzip (starts ${head.toString('hex')})`);
      return bytes;
    });
    const totalBytes = sizes.reduce((sum, size) => sum + size, 0);
    return { byFile: new Map(files.map((file, i) => [file.filename, sizes[i]!])), totalBytes, meanBytes: totalBytes / files.length };
  } finally {
    agent.destroy();
  }
}
