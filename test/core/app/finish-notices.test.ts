// What the desktop says when work ends, read from the events a real core sends while it downloads from the emulator
// over HTTP: the notices' numbers are the ones the window shows, worded by the same functions.
import { afterEach, describe, expect, it } from 'vitest';
import type { EventChannel, EventChannels } from '../../../src-shared/contract/contract';
import { syncSummary } from '../../../src-shared/campaigns/count-text';
import { runEndText } from '../../../src-shared/downloads/run-figures';
import { FinishWatcher, type DockState, type FinishNotice } from '../../../src-shared/notices/finish-notices';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { completedSearch } from '../../helpers/kept-search';
import { useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
const open: CoreHarness[] = [];
afterEach(async () => {
  emulator().clearFaults();
  emulator().setOptions({ registeredEmails: [DEMO_EMAIL], bandwidthBytesPerSecond: 0 });
  await Promise.all(open.splice(0).map((h) => h.core.close()));
});

const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '2hours' } };

/** A core over the emulator, signed in, whose events a watcher reads as they come (as the desktop app's does). */
async function watchedCore(): Promise<{ h: CoreHarness; notices: FinishNotice[]; docks: DockState[] }> {
  const h = await coreHarness(emulator(), { settings: { retries: 0 } });
  open.push(h);
  const notices: FinishNotice[] = [];
  const docks: DockState[] = [];
  const watcher = new FinishWatcher({ notify: (notice) => notices.push(notice), showDock: (state) => docks.push(state) });
  const record = h.events.push.bind(h.events);
  h.events.push = (...entries) => {
    for (const { event, payload } of entries) watcher.observe(event, payload as EventChannels[EventChannel]);
    return record(...entries);
  };
  await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
  return { h, notices, docks };
}

describe('the notices when work ends', () => {
  it('tells a finished run once, failures first, with the counts the status bar shows', async () => {
    const { h, notices, docks } = await watchedCore();
    const listing = await completedSearch(h.core.handlers, QUERY);
    const broken = listing.files[1]!.filename;
    emulator().injectFault(broken, 'status-404', 5);
    // Slow enough that the run outlasts a few progress events, whatever the machine's load: the dock shows it moving.
    emulator().setOptions({ bandwidthBytesPerSecond: 4_000 });
    await h.core.handlers['downloads:enqueue']({ searchId: listing.searchId });
    await waitFor(() => notices.length > 0, 'the notice of the run');
    const { run } = (await h.core.handlers['downloads:snapshot']()).overall;
    expect(run).toMatchObject({ inProgress: false, failed: 1, done: listing.files.length - 1 });
    expect(notices).toEqual([{ title: 'Downloads finished with failures', body: runEndText(run), problem: true }]);
    expect(notices[0]!.body).toBe(`1 failed, ${listing.files.length - 1} of ${listing.files.length} files done`);
    // The dock showed the run moving, then no bar once it ended, with the failed file on the badge.
    expect(docks.some((state) => state.fraction !== null)).toBe(true);
    expect(docks.at(-1)).toEqual({ fraction: null, paused: false, failed: 1 });
  });

  it("tells a campaign's sync once its files have arrived, in the card's words", async () => {
    const { h, notices } = await watchedCore();
    await h.core.handlers['campaigns:create']({ name: 'season', queries: [QUERY] });
    await h.core.handlers['campaigns:sync']({ name: 'season' });
    await waitFor(() => notices.some((notice) => notice.title.startsWith('season')), 'the notice of the sync');
    const [overview] = await h.core.handlers['campaigns:list']();
    expect(overview!.counts).toMatchObject({ queued: 0, failed: 0 });
    expect(notices.filter((notice) => notice.title.startsWith('season'))).toEqual([
      { title: 'season: synced', body: syncSummary(overview!.counts), problem: false },
    ]);
  });

  it('says why the queue stopped by itself when the session is lost and signing in again is refused', async () => {
    const { h, notices } = await watchedCore();
    const { searchId } = await completedSearch(h.core.handlers, QUERY);
    emulator().setOptions({ registeredEmails: [] });
    emulator().expireSessions();
    await h.core.handlers['downloads:enqueue']({ searchId });
    await waitFor(() => notices.length > 0, 'the notice of the stopped queue');
    const reason = (await h.core.handlers['downloads:snapshot']()).overall.pauseReason;
    expect(reason).not.toBeNull();
    expect(reason).toMatchObject({ kind: 'unknown-user' });
    expect(notices[0]).toEqual({ title: 'Downloads stopped', body: reason!.message, problem: true });
  });
});
