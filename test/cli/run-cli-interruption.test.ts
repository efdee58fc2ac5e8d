// A stop signal is a stop wherever it finds the run: work that ends by throwing the signal's own reason (as
// AbortSignal.throwIfAborted does, e.g. while the output waits for a reader) gives the signal's exit status,
// not an "unexpected problem".
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Interruption, exitStatusForSignal } from '../../src-main/cli/exit-codes';
import { runCli } from '../../src-main/cli/run-cli';
import { Capture, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 8 });

/** Standard output whose reader never reads: the first write is taken, nothing after it drains. */
class StalledReader extends Writable {
  readonly firstWrite: Promise<void>;
  private reached!: () => void;

  constructor() {
    super({ highWaterMark: 1024 });
    this.firstWrite = new Promise((resolve) => (this.reached = resolve));
  }

  override _write(_chunk: Buffer, _encoding: BufferEncoding, _done: () => void): void {
    this.reached(); // and never calls done: the reader has stopped
  }
}

describe('runCli stopped by a signal', () => {
  it('while the output waits for its reader: the signal status, and no "unexpected problem"', async () => {
    const stdout = new StalledReader();
    const stderr = new Capture();
    const stop = new AbortController();
    const run = runCli(['--base-url', emulator().url, 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '--json'], {
      stdout,
      stderr,
      signal: stop.signal,
    });
    await stdout.firstWrite;
    stop.abort(new Interruption('SIGTERM'));
    expect(await run).toBe(exitStatusForSignal('SIGTERM'));
    expect(stderr.text).not.toContain('unexpected problem');
  });
});
