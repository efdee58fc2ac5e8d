// A file sink whose disk fills up: writes fail with ENOSPC once `full()` says so and `afterBytes` went through.
import { Writable } from 'node:stream';
import { openFileSink, type OpenFileSink } from '../../src-main/core/downloads/file-sink';

export function diskThatFills(full: () => boolean, afterBytes = 0): OpenFileSink {
  return async (file) => {
    const real = await openFileSink(file);
    let written = 0;
    const writable = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        if (full() && written > afterBytes) {
          done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
          return;
        }
        real.writable.write(chunk, (error) => done(error ?? null));
      },
      final(done) {
        real.writable.end(() => done());
      },
    });
    return { writable, sync: () => real.sync(), close: () => real.close() };
  };
}
