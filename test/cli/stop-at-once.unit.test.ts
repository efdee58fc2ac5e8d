// stopAtOnceDuring sets the command line's stop-signal handlers aside only while its synchronous work runs, and
// puts every one of them back, in order, however the work ends. (The built command line under a real signal:
// test/cli/fits-input-process.test.ts.)
import { afterEach, describe, expect, it } from 'vitest';
import { STOP_SIGNALS } from '../../src-main/cli/exit-codes';
import { stopAtOnceDuring } from '../../src-main/cli/stop-at-once';

const first = (): void => undefined;
const second = (): void => undefined;
afterEach(() => {
  for (const name of STOP_SIGNALS) {
    process.removeListener(name, first);
    process.removeListener(name, second);
  }
});

describe('stopAtOnceDuring', () => {
  it('runs the work with no stop-signal listener, then restores them all, also when the work throws', () => {
    for (const name of STOP_SIGNALS) process.on(name, first).on(name, second);
    const before = STOP_SIGNALS.map((name) => process.listeners(name));
    const seen = stopAtOnceDuring(new AbortController().signal, () => STOP_SIGNALS.map((name) => process.listenerCount(name)));
    expect(seen).toEqual([0, 0, 0]);
    expect(STOP_SIGNALS.map((name) => process.listeners(name))).toEqual(before);
    expect(() =>
      stopAtOnceDuring(new AbortController().signal, () => {
        throw new Error('bad image');
      }),
    ).toThrow('bad image');
    expect(STOP_SIGNALS.map((name) => process.listeners(name))).toEqual(before);
  });

  it('leaves the listeners alone without a stop signal (in-process runs), and does not start once stopped', () => {
    process.on('SIGINT', first);
    expect(stopAtOnceDuring(undefined, () => process.listeners('SIGINT').includes(first))).toBe(true);
    const stopped = new AbortController();
    stopped.abort(new Error('stopped'));
    let ran = false;
    expect(() => stopAtOnceDuring(stopped.signal, () => (ran = true))).toThrow('stopped');
    expect(ran).toBe(false);
  });
});
