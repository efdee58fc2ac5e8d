// The app's Download into a second folder takes the files finished in the first from there: the enqueue notice's
// summary says how many and from where, and the linkReused setting makes them hard links.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { completedSearch } from '../../helpers/kept-search';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 16 });
const open: CoreHarness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
});

describe('the app reuses files downloaded into another folder', () => {
  it.each([
    [false, 'copies'],
    [true, 'hard-links'],
  ])('with linkReused %s it %s them, fetches nothing, and the summary says how many and from where', async (linkReused) => {
    const h = await coreHarness(emulator());
    open.push(h);
    const { core, downloadFolder } = h;
    await core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await core.handlers['settings:update']({ linkReused });
    const query = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '2hours' } };
    const listing = await completedSearch(core.handlers, query);
    const count = listing.files.length;
    expect((await core.handlers['downloads:enqueue']({ searchId: listing.searchId })).reused).toEqual({ count: 0, from: [] });
    await waitFor(async () => (await core.handlers['downloads:snapshot']()).overall.done === count, 'the first download');
    emulator().resetStats();

    const other = await temporaryFolder();
    const summary = await core.handlers['downloads:enqueue']({ searchId: listing.searchId, folder: other });
    expect(summary).toMatchObject({ queued: 0, skipped: [], rejected: [], reused: { count, from: [downloadFolder] } });
    expect(emulator().stats().downloadsStarted).toBe(0);
    const name = listing.files[0]!.filename;
    const [from, to] = await Promise.all([stat(path.join(downloadFolder, name)), stat(path.join(other, name))]);
    expect(to.ino === from.ino).toBe(linkReused);
  });
});
