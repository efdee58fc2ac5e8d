// The renderer's one request resource: the latest answer wins, an error goes with the next success, loading
// follows the request in flight, and cancel or reset stop waiting.
import { describe, expect, it } from 'vitest';
import type { Result } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import { Request } from '../../src-renderer/lib/request.svelte';

const REFUSED: ErrorData = { kind: 'network', message: 'The service could not be reached; try again.' };

/** A call whose answer the test gives when it likes. */
function pending<T>(): { call: () => Promise<Result<T>>; answer: (result: Result<T>) => void } {
  let answer: (result: Result<T>) => void = () => {};
  const promise = new Promise<Result<T>>((resolve) => (answer = resolve));
  return { call: () => promise, answer };
}

describe('a request', () => {
  it('is loading while its call is out, and keeps the answer', async () => {
    const request = new Request<string>();
    const first = pending<string>();
    const running = request.run(first.call);
    expect(request.loading).toBe(true);
    first.answer({ ok: true, value: 'kcor' });
    expect(await running).toEqual({ ok: true, value: 'kcor' });
    expect(request.loading).toBe(false);
    expect(request.value).toBe('kcor');
    expect(request.error).toBeNull();
  });

  it('drops an answer that is no longer the latest, whichever comes first', async () => {
    const request = new Request<string>();
    const older = pending<string>();
    const newer = pending<string>();
    const olderRun = request.run(older.call);
    const newerRun = request.run(newer.call);
    newer.answer({ ok: true, value: 'new' });
    expect(await newerRun).toEqual({ ok: true, value: 'new' });
    older.answer({ ok: false, error: REFUSED });
    expect(await olderRun).toBeNull();
    expect(request.value).toBe('new');
    expect(request.error).toBeNull();
    expect(request.loading).toBe(false);
  });

  it('stays loading while the latest is out, even when an older one answers', async () => {
    const request = new Request<string>();
    const older = pending<string>();
    const newer = pending<string>();
    const olderRun = request.run(older.call);
    const newerRun = request.run(newer.call);
    older.answer({ ok: true, value: 'old' });
    expect(await olderRun).toBeNull();
    expect(request.loading).toBe(true);
    expect(request.value).toBeNull();
    newer.answer({ ok: true, value: 'new' });
    await newerRun;
    expect(request.value).toBe('new');
  });

  it('shows an error until a later success, keeping the value it had', async () => {
    const request = new Request<string>();
    await request.run(async () => ({ ok: true, value: 'kcor' }));
    await request.run(async () => ({ ok: false, error: REFUSED }));
    expect(request.error).toEqual(REFUSED);
    expect(request.value).toBe('kcor');
    await request.run(async () => ({ ok: true, value: 'ucomp' }));
    expect(request.error).toBeNull();
    expect(request.value).toBe('ucomp');
  });

  it('puts the last error away when a new request starts, unless told to keep it until the answer', async () => {
    const clearing = new Request<string>();
    const keeping = new Request<string>({ keepErrorWhileLoading: true });
    for (const request of [clearing, keeping]) await request.run(async () => ({ ok: false, error: REFUSED }));
    const clearingCall = pending<string>();
    const keepingCall = pending<string>();
    const runs = [clearing.run(clearingCall.call), keeping.run(keepingCall.call)];
    expect(clearing.error).toBeNull();
    expect(keeping.error).toEqual(REFUSED);
    clearingCall.answer({ ok: true, value: 'a' });
    keepingCall.answer({ ok: true, value: 'b' });
    await Promise.all(runs);
    expect(keeping.error).toBeNull();
  });

  it('cancel stops waiting: not loading, the answer dropped, what was shown kept', async () => {
    const request = new Request<string>();
    await request.run(async () => ({ ok: true, value: 'before' }));
    const slow = pending<string>();
    const running = request.run(slow.call);
    request.cancel();
    expect(request.loading).toBe(false);
    slow.answer({ ok: true, value: 'late' });
    expect(await running).toBeNull();
    expect(request.value).toBe('before');
  });

  it('reset forgets the value and the error and drops the answer in flight', async () => {
    const request = new Request<string>();
    await request.run(async () => ({ ok: true, value: 'kcor' }));
    await request.run(async () => ({ ok: false, error: REFUSED }));
    const slow = pending<string>();
    const running = request.run(slow.call);
    request.reset();
    slow.answer({ ok: true, value: 'late' });
    expect(await running).toBeNull();
    expect(request.value).toBeNull();
    expect(request.error).toBeNull();
    expect(request.loading).toBe(false);
  });

  it('hands an answer that came too late to discard, so what it holds can be let go', async () => {
    const discarded: string[] = [];
    const request = new Request<string>({ discard: (value) => discarded.push(value) });
    const older = pending<string>();
    const olderRun = request.run(older.call);
    await request.run(async () => ({ ok: true, value: 'shown' }));
    older.answer({ ok: true, value: 'opened too late' });
    await olderRun;
    expect(discarded).toEqual(['opened too late']);
    expect(request.value).toBe('shown');
  });

  it('tells a call made of steps whether it is still wanted', async () => {
    const request = new Request<string>();
    const steps = [pending<string>(), pending<string>()];
    const seen: boolean[] = [];
    const running = request.run(async (stillWanted) => {
      for (const step of steps) {
        await step.call();
        seen.push(stillWanted());
      }
      return { ok: true, value: 'done' };
    });
    steps[0]!.answer({ ok: true, value: 'read' });
    await Promise.resolve();
    request.cancel();
    steps[1]!.answer({ ok: true, value: 'opened' });
    expect(await running).toBeNull();
    expect(seen).toEqual([true, false]);
  });
});
