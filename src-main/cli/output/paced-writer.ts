// Writes a long result at the pace its reader takes it: once a write leaves the stream's buffer over its mark,
// the next waits for 'drain', so a slow reader (a pager, a full pipe) holds the producer back instead of the
// output piling up in memory. A stream that fails or closes stops the writing for good.

/** Why the output can take nothing more: the reader left (EPIPE: `| head -1` has seen enough), or writing failed. */
export type OutputStop = 'reader-left' | 'failed';

export class OutputStoppedError extends Error {
  constructor(readonly stop: OutputStop) {
    super(stop === 'reader-left' ? 'The reader of the output has gone.' : 'The output could not be written.');
    this.name = 'OutputStoppedError';
  }
}

export class PacedWriter {
  private stopped: OutputStop | undefined;

  constructor(private readonly stream: NodeJS.WritableStream) {
    // The process's own watcher reports a failed stdout; this listener only learns that the writing must stop.
    stream.on('error', (error: NodeJS.ErrnoException) => {
      this.stopped ??= error.code === 'EPIPE' ? 'reader-left' : 'failed';
    });
    stream.on('close', () => {
      this.stopped ??= 'reader-left';
    });
  }

  /** Why writing stopped, once it has. */
  get stop(): OutputStop | undefined {
    return this.stopped;
  }

  /**
   * Writes `text`, resolving once the stream can take more. Rejects with OutputStoppedError when the stream
   * can take nothing more, and with the signal's reason when `signal` aborts while the reader is slow.
   */
  async write(text: string, signal?: AbortSignal): Promise<void> {
    this.throwIfStopped();
    signal?.throwIfAborted();
    if (text.length === 0 || this.stream.write(text)) return;
    await this.drained(signal);
    this.throwIfStopped();
  }

  private throwIfStopped(): void {
    if (this.stopped !== undefined) throw new OutputStoppedError(this.stopped);
  }

  /** Waits for 'drain', or for the end of the stream (an error, a close) or of the caller's patience. */
  private drained(signal: AbortSignal | undefined): Promise<void> {
    const stream = this.stream;
    return new Promise((resolve, reject) => {
      const ready = (): void => {
        settle();
        resolve();
      };
      const abort = (): void => {
        settle();
        reject(signal?.reason);
      };
      const settle = (): void => {
        stream.off('drain', ready);
        stream.off('error', ready);
        stream.off('close', ready);
        signal?.removeEventListener('abort', abort);
      };
      stream.on('drain', ready);
      stream.on('error', ready);
      stream.on('close', ready);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }
}
