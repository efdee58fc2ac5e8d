// The file sink owns one descriptor and must close it exactly once: a second close of the same number
// can close a file another download has just opened, and that download's bytes then go nowhere.
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFileSink } from '../../../src-main/core/downloads/file-sink';
import { temporaryFolder } from '../../helpers/fixtures';

const MIB = 1024 * 1024;

describe('file sink', () => {
  it('an abandoned sink with a write under way is closed once, by whoever closes it last', async () => {
    const folder = await temporaryFolder();
    const sink = await openFileSink(path.join(folder, 'abandoned.part'));
    const errors: string[] = [];
    sink.writable.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    // A large write keeps the stream busy in the thread pool while the download is abandoned, as when
    // the pipeline fails mid-body and the sink is closed at once.
    sink.writable.write(Buffer.alloc(64 * MIB, 1));
    sink.writable.destroy();
    await sink.close();
    // close() resolved: the descriptor is gone, and nobody closes its number again later.
    expect(sink.writable.closed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });

  it('a failure that comes before anyone listens is kept for the reader (writable.errored), never thrown, and close() ends', async () => {
    const folder = await temporaryFolder();
    const sink = await openFileSink(path.join(folder, 'full.part'));
    sink.writable.destroy(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    await sink.close();
    expect(sink.writable.errored).toMatchObject({ code: 'ENOSPC' });
    expect(sink.writable.closed).toBe(true);
  });

  it('a finished sink is flushed and closed once', async () => {
    const folder = await temporaryFolder();
    const file = path.join(folder, 'whole.part');
    const sink = await openFileSink(file);
    const errors: unknown[] = [];
    sink.writable.on('error', (error) => errors.push(error));
    await new Promise<void>((resolve, reject) => sink.writable.end(Buffer.from('SIMPLE  ='), (error?: Error | null) => (error ? reject(error) : resolve())));
    await sink.sync();
    await sink.close();
    await sink.close();
    expect(await readFile(file, 'utf8')).toBe('SIMPLE  =');
    expect(errors).toEqual([]);
  });

  it('a second close does not close a descriptor number another file has been given since', async () => {
    const folder = await temporaryFolder();
    const sink = await openFileSink(path.join(folder, 'first.part'));
    await new Promise<void>((resolve) => sink.writable.end(Buffer.from('x'), () => resolve()));
    await sink.close();
    // The lowest free number is handed out next: usually the one the sink just gave back.
    const other = openSync(path.join(folder, 'other.part'), 'w');
    try {
      await sink.close();
      expect(() => writeSync(other, 'still open')).not.toThrow();
    } finally {
      closeSync(other);
    }
    expect(await readFile(path.join(folder, 'other.part'), 'utf8')).toBe('still open');
  });
});
