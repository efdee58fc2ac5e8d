// Writing at the reader's pace: a write past the stream's mark waits for 'drain', a broken stream stops the
// writing with the reason, and a stop signal ends the wait for a reader that stopped reading.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputStoppedError, PacedWriter } from '../../../src-main/cli/output/paced-writer';

/** A stream whose reader takes nothing until released: every write's completion is held back. */
class HeldStream extends Writable {
  text = '';
  private held: (() => void)[] = [];
  private reading = false;
  constructor() {
    super({ highWaterMark: 8, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk;
    if (this.reading) done();
    else this.held.push(done);
  }
  /** The reader takes everything from now on. */
  release(): void {
    this.reading = true;
    for (const done of this.held.splice(0)) done();
  }
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('PacedWriter', () => {
  it('resolves a write that fits at once, and waits for drain after one that passes the mark', async () => {
    const stream = new HeldStream();
    const writer = new PacedWriter(stream);
    await writer.write('1234');
    const waiting = writer.write('5678901234');
    expect(await settled(waiting)).toBe(false);
    stream.release();
    await waiting;
    expect(stream.text).toBe('12345678901234');
    expect(writer.stop).toBeUndefined();
  });

  it.each([
    ['EPIPE', 'reader-left'],
    ['ENOSPC', 'failed'],
  ])('a stream failing with %s ends the wait and stops the writing (%s)', async (code, stop) => {
    const stream = new HeldStream();
    const writer = new PacedWriter(stream);
    const waiting = writer.write('more than eight characters');
    stream.destroy(Object.assign(new Error(code), { code }));
    await expect(waiting).rejects.toEqual(new OutputStoppedError(stop as 'reader-left'));
    expect(writer.stop).toBe(stop);
    await expect(writer.write('x')).rejects.toBeInstanceOf(OutputStoppedError);
  });

  it('a stream closed without an error is a reader that left', async () => {
    const stream = new HeldStream();
    const writer = new PacedWriter(stream);
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await expect(writer.write('x')).rejects.toMatchObject({ stop: 'reader-left' });
  });

  it('a stop signal ends the wait for a reader that stopped reading, with the signal reason', async () => {
    const stream = new HeldStream();
    const writer = new PacedWriter(stream);
    const stop = new AbortController();
    const waiting = writer.write('more than eight characters', stop.signal);
    expect(await settled(waiting)).toBe(false);
    stop.abort(new Error('Stopped by SIGTERM.'));
    await expect(waiting).rejects.toThrow('Stopped by SIGTERM.');
    await expect(writer.write('x', stop.signal)).rejects.toThrow('Stopped by SIGTERM.');
    expect(stream.listenerCount('drain')).toBe(0);
  });
});
