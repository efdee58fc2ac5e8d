// The one session every download worker shares: signed in before the first file, renewed before the cookie's
// Expires (sooner for short sessions), and once, not once per worker, when downloads are refused.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { SessionKeeper, SignInRequiredError } from '../../../src-main/core/downloads/session-keeper';

const NOW = Date.UTC(2026, 10, 24, 12);

/** A client whose session expiry the test sets, and whose sign-ins it can hold back or fail. */
function fakeClient() {
  const state = {
    expiry: undefined as number | null | undefined,
    /** The expiry a sign-in gives the session. */
    grants: null as number | null,
    signIns: [] as string[],
    hold: undefined as Promise<void> | undefined,
    fail: false,
  };
  const client = {
    sessionExpiry: () => Promise.resolve(state.expiry),
    authenticate: async (username: string) => {
      state.signIns.push(username);
      if (state.hold) await state.hold;
      if (state.fail) throw new Error('the server said no');
      state.expiry = state.grants;
      return 'signed in';
    },
  } as unknown as MlsoClient;
  return { client, state };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the session keeper', () => {
  it('signs in before the first download when signed out, and counts that session as generation 1', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    expect(await keeper.ready()).toBe(1);
    expect(state.signIns).toEqual(['ada@example.org']);
  });

  it('asks for a sign-in when no e-mail is known', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => undefined);
    await expect(keeper.ready()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(state.signIns).toEqual([]);
  });

  it('keeps a session without an expiry, and one that expires well after the margin', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    state.expiry = null;
    expect(await keeper.ready()).toBe(0);
    state.expiry = NOW + 30_001;
    expect(await keeper.ready()).toBe(0);
    expect(state.signIns).toEqual([]);
  });

  it('renews a session that expires within the margin (30 s by default), the boundary included', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    state.grants = NOW + 3_600_000;
    state.expiry = NOW + 30_000;
    expect(await keeper.ready()).toBe(1);
    expect(state.signIns).toHaveLength(1);
  });

  it('shortens the margin to a tenth of a short session, so it is not renewed before every file', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    state.grants = NOW + 60_000; // a 60 s session: margin 6 s
    await keeper.ready();
    state.expiry = NOW + 10_000;
    expect(await keeper.ready()).toBe(1);
    state.expiry = NOW + 5_000;
    expect(await keeper.ready()).toBe(2);
    expect(state.signIns).toHaveLength(2);
  });

  it('keeps the full margin after a sign-in whose session has no expiry', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    state.grants = null;
    await keeper.ready();
    state.expiry = NOW + 10_000;
    expect(await keeper.ready()).toBe(2);
  });

  it('signs in once for all the workers refused on the same session, and not again for a refusal of an older one', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    const held = deferred();
    state.hold = held.promise;
    // The server revoked a session whose cookie has not expired yet.
    state.expiry = NOW + 3_600_000;
    state.grants = NOW + 7_200_000;
    const renewals = [keeper.renew(0), keeper.renew(0), keeper.renew(0)];
    // A worker asking for the session meanwhile waits for the new one, rather than taking the revoked one.
    let readyGeneration: number | undefined;
    const ready = keeper.ready().then((generation) => (readyGeneration = generation));
    await Promise.resolve();
    expect(readyGeneration).toBeUndefined();
    held.resolve();
    await Promise.all([...renewals, ready]);
    expect(readyGeneration).toBe(1);
    await keeper.renew(0);
    expect(state.signIns).toHaveLength(1);
  });

  it('tries again on the next refusal after a sign-in failed', async () => {
    const { client, state } = fakeClient();
    const keeper = new SessionKeeper(client, () => 'ada@example.org');
    state.fail = true;
    await expect(keeper.renew(0)).rejects.toThrow('the server said no');
    state.fail = false;
    state.grants = NOW + 3_600_000;
    await keeper.renew(0);
    expect(state.signIns).toHaveLength(2);
    expect(await keeper.ready()).toBe(1);
  });
});
