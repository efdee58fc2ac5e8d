// Writes a body's resume file (resume-file.ts), the beginning of the body kept for resuming, as it arrives. The first bytes are held in memory and written
// only when the transfer stops short (pause, Ctrl-C, SIGTERM, a dropped connection): most bodies (a KCor file is
// some 2.7 MB) arrive whole, and writing each a second time only to delete it is CPU a batch need not spend. Past
// the held bytes the body is written in batches, so what a kill -9 loses stays bounded.
import { close, fsync, open, writev } from 'node:fs';
import { promisify } from 'node:util';

/** Bytes of a body held in memory before any is written: a KCor file's whole body, with room to spare. */
export const HELD_BODY_BYTES = 4 * 1024 * 1024;
/** Past those, bytes gathered before they are written in one call (a socket read is some 64 KB). */
const BATCH_BYTES = 1024 * 1024;

const openFile = promisify(open);
const syncFile = promisify(fsync);
const closeFile = promisify(close);
const writevFile = promisify(writev);

export interface ResumeFileTarget {
  /** The kept file's path. */
  path: string;
  /** Bytes an earlier attempt kept there (this one appends); 0 when this attempt starts the body. */
  keptBefore: number;
  /** Called once, before this attempt creates the file: the caller records where the body is kept first. */
  beforeCreate?: () => void;
  /** Bytes held in memory before any is written (default HELD_BODY_BYTES). */
  heldBytes?: number;
}

/**
 * One batch is written while the next gathers; a third waits for the disk, so a slow disk slows the socket, not
 * memory. The file is created (or opened to append to) at the first write, so a body that arrives whole never
 * touches the disk twice.
 */
export class ResumeFileWriter {
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private spilled = false;
  private writing: Promise<void> | undefined;
  private failure: unknown;
  private opening: Promise<number> | undefined;
  private fd: number | undefined;
  private writtenBytes = 0;

  constructor(private readonly file: ResumeFileTarget) {}

  /** Bytes of the body kept in the file now: the earlier attempts' and those this one has written. */
  get keptBytes(): number {
    return this.file.keptBefore + this.writtenBytes;
  }

  /** Whether the file may exist: an earlier attempt kept it, or this one began to create it. */
  get mayHaveFile(): boolean {
    return this.file.keptBefore > 0 || this.opening !== undefined;
  }

  /** Takes the next chunk of the body; a promise when the caller must wait for the disk before it sends more. */
  take(chunk: Buffer): Promise<void> | undefined {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.batch.push(chunk);
    this.batchBytes += chunk.length;
    if (this.batchBytes < (this.spilled ? BATCH_BYTES : (this.file.heldBytes ?? HELD_BODY_BYTES))) return undefined;
    this.spilled = true;
    if (!this.writing) {
      this.startWrite();
      return undefined;
    }
    return this.writing.then(() => this.startWrite());
  }

  /**
   * Ends the attempt. Kept (a transfer cut short): every byte that arrived is written and flushed, best effort, so
   * a crash after it does not lose it; a failed write keeps what was written before it. Not kept: only the write
   * under way is waited for, as the descriptor cannot be closed under it (its number could be another file's by the
   * time the write ran).
   */
  async close(keep: boolean): Promise<void> {
    if (keep) await this.finish().catch(() => undefined);
    else await this.settled();
    if (this.fd === undefined) return;
    if (keep) await syncFile(this.fd).catch(() => undefined);
    await closeFile(this.fd).catch(() => undefined);
  }

  private async finish(): Promise<void> {
    await this.settled();
    if (this.failure !== undefined) throw this.failure;
    if (this.batchBytes > 0) this.startWrite();
    await this.settled();
    if (this.failure !== undefined) throw this.failure;
  }

  private async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private startWrite(): void {
    const chunks = this.batch;
    const bytes = this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    const write: Promise<void> = this.descriptor()
      .then((fd) => writeAll(fd, chunks))
      .then(
        () => {
          this.writtenBytes += bytes;
          this.written(write);
        },
        (error: unknown) => {
          this.failure ??= error;
          this.written(write);
        },
      );
    this.writing = write;
  }

  private written(write: Promise<void>): void {
    if (this.writing === write) this.writing = undefined;
  }

  private descriptor(): Promise<number> {
    this.opening ??= (async () => {
      if (this.file.keptBefore === 0) this.file.beforeCreate?.();
      this.fd = await openFile(this.file.path, this.file.keptBefore > 0 ? 'a' : 'wx', 0o644);
      return this.fd;
    })();
    return this.opening;
  }
}

/** Writes every byte of `chunks` at the descriptor's position, however many calls that takes. */
async function writeAll(fd: number, chunks: Buffer[]): Promise<void> {
  let rest = chunks;
  while (rest.length > 0) {
    let written = (await writevFile(fd, rest)).bytesWritten;
    const left: Buffer[] = [];
    for (const chunk of rest) {
      if (written >= chunk.length) written -= chunk.length;
      else {
        left.push(written > 0 ? chunk.subarray(written) : chunk);
        written = 0;
      }
    }
    rest = left;
  }
}
