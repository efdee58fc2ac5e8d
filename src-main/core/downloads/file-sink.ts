// Where downloaded bytes go: a writable stream over a new file plus the fsync and close the download
// needs, behind a small port so tests can put a full disk behind it.
import { close, createWriteStream, fsync, open } from 'node:fs';
import type { Writable } from 'node:stream';
import { promisify } from 'node:util';

export interface FileSink {
  /**
   * Receives the decompressed bytes; ending it flushes them to the file. Its `errored` is the file's own failure
   * (a full disk, say), whenever it came: the download reports that rather than what a stream says of it.
   */
  writable: Writable;
  /** Flushes the file to stable storage, so a rename after it never exposes bytes still in cache. Call after `writable` finished. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

export type OpenFileSink = (path: string) => Promise<FileSink>;

// A large buffer lets several decompressed chunks reach the disk in one writev call.
const WRITE_BUFFER_BYTES = 1024 * 1024;

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);

/** Opens a new file for writing; fails if the name is taken (temporary names are never reused). */
export const openFileSink: OpenFileSink = async (path) => {
  // A numeric descriptor rather than a FileHandle: a FileHandle lent to a write stream never settles its
  // close() afterwards, and this sink must fsync and close the file once the stream is done.
  const fd = await openFile(path, 'wx', 0o644);
  const writable = createWriteStream('', { fd, highWaterMark: WRITE_BUFFER_BYTES, autoClose: false });
  // The failure is read from writable.errored. Without a listener, one that comes before the pipeline listens is
  // thrown as uncaught (Node 24's pipeline refuses a destroyed stream and never listens), and the throw cuts the
  // stream's 'close' that close() waits for.
  writable.on('error', () => undefined);
  let closed = false;
  return {
    writable,
    sync: () => syncFile(fd),
    async close() {
      if (closed) return;
      closed = true;
      if (writable.writableFinished && !writable.destroyed) {
        await closeFile(fd).catch(() => undefined);
        return;
      }
      // A destroyed write stream closes the descriptor itself (autoClose notwithstanding), once its last
      // write is done. Closing it here as well would close that number twice, and the second close could
      // hit a file another download has opened in the meantime: wait for the stream's own close instead.
      if (!writable.closed) {
        const streamClosed = new Promise<void>((resolve) => writable.once('close', () => resolve()));
        writable.destroy();
        await streamClosed;
      }
    },
  };
};
