// Where downloaded bytes go: a thin port over an open file, so tests can put a full disk behind it.
import { open } from 'node:fs/promises';

export interface FileSink {
  write(chunk: Buffer): Promise<void>;
  /** Flushes to stable storage, so a rename after it never exposes a file whose bytes are still in cache. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type OpenFileSink = (path: string) => Promise<FileSink>;

/** Opens a new file for writing; fails if the name is taken (temporary names are never reused). */
export const openFileSink: OpenFileSink = async (path) => {
  const handle = await open(path, 'wx', 0o644);
  return {
    async write(chunk) {
      let offset = 0;
      while (offset < chunk.length) {
        const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
        offset += bytesWritten;
      }
    },
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
};
