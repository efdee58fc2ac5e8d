import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../../src-shared/contract/contract';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { useEmulator } from '../../helpers/fixtures';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { completedSearch, endedSearch, positionsChosen } from '../../helpers/kept-search';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 64 });
const open: CoreHarness[] = [];
async function harness(...args: Parameters<typeof coreHarness> extends [unknown, ...infer Rest] ? Rest : never): Promise<CoreHarness> {
  const h = await coreHarness(emulator(), ...args);
  open.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
});

describe('the app core behind the contract', () => {
  it('has a handler for every channel of the contract, and nothing else', async () => {
    const { core } = await harness();
    expect(Object.keys(core.handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(await invokeHandler(core.handlers, 'no:such-channel', {})).toMatchObject({ ok: false, error: { kind: 'internal' } });
  });

  it('describes the app and the server in use', async () => {
    const { core } = await harness();
    const info = await core.handlers['app:info']();
    expect(info).toMatchObject({ transport: 'web', serverUrl: emulator().url, serverKind: 'custom', demoEmail: DEMO_EMAIL, canUseNativeDialogs: false });
  });

  it('signs in, reports the session, remembers the e-mail, and signs out', async () => {
    const { core, events, settings } = await harness();
    expect(await core.handlers['session:get']()).toEqual({ signedIn: false, email: null, expiresAt: null });
    const state = await core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    expect(state).toMatchObject({ signedIn: true, email: DEMO_EMAIL });
    expect(state.expiresAt).toBeGreaterThan(Date.now());
    expect(settings.saved.lastEmail).toBe(DEMO_EMAIL);
    expect(events.filter((e) => e.event === 'session:changed').at(-1)?.payload).toEqual(state);
    expect(await core.handlers['session:sign-out']()).toMatchObject({ signedIn: false });
  });

  it('says in one sentence which e-mail the demo server takes when it refuses one', async () => {
    const { core } = await harness();
    const result = await invokeHandler(core.handlers, 'session:sign-in', { email: 'stranger@example.org' });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'unknown-user',
        registrationUrl: 'https://registration.hao.ucar.edu',
        message:
          'stranger@example.org is not registered on the demo server: sign in as demo@example.com (accounts for the real service are made at https://registration.hao.ucar.edu).',
      },
    });
  });

  it('names the e-mail to use for an unknown e-mail on the demo server', async () => {
    const { core } = await harness();
    await core.handlers['settings:update']({ useDemoServer: true });
    const result = await invokeHandler(core.handlers, 'session:sign-in', { email: 'stranger@example.org' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'unknown-user' } });
    if (!result.ok) {
      expect(result.error.message).toBe(
        `stranger@example.org is not registered on the demo server: sign in as ${DEMO_EMAIL} (accounts for the real service are made at https://registration.hao.ucar.edu).`,
      );
    }
  });

  it('browses the catalogue and refuses invalid filters with the rule', async () => {
    const { core } = await harness();
    const instruments = await core.handlers['catalog:instruments']();
    expect(instruments.map((i) => i.id)).toEqual(['kcor', 'ucomp']);
    const products = await core.handlers['catalog:products']({ instrument: 'ucomp' });
    expect(products.map((p) => p.id)).toContain('l2');
    expect((await core.handlers['catalog:product']({ instrument: 'ucomp', product: 'l2' })).filters).toContain('wave-region');
    const listing = await completedSearch(core.handlers, { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '1hour' } });
    expect(listing.files.length).toBeGreaterThan(2);
    const bad = await invokeHandler(core.handlers, 'search:start', { instrument: 'kcor', product: 'pb', filters: { every: 'often' } });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
  });

  it('asks to sign in before downloading, then downloads with live progress', async () => {
    const { core, events, downloadFolder } = await harness({ shell: true });
    const listing = await completedSearch(core.handlers, { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '1hour' } });
    const refused = await invokeHandler(core.handlers, 'downloads:enqueue', { searchId: listing.searchId });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'session' } });
    await core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const summary = await core.handlers['downloads:enqueue']({ searchId: listing.searchId });
    expect(summary).toMatchObject({ queued: listing.files.length, skipped: [], rejected: [], folder: downloadFolder });
    await waitFor(async () => (await core.handlers['downloads:snapshot']()).overall.done === listing.files.length, 'every file to be downloaded', 5_000, 50);
    const snapshot = await core.handlers['downloads:snapshot']();
    expect(snapshot.overall).toMatchObject({ done: listing.files.length, failed: 0 });
    expect((await readdir(downloadFolder)).sort()).toEqual(listing.files.map((f) => f.filename).sort());
    const updates = () => events.filter((e) => e.event === 'downloads:progress').map((e) => e.payload as ProgressUpdate);
    await waitFor(() => updates().at(-1)?.overall.done === listing.files.length, 'the progress event of the last file');
    const progress = updates();
    expect(progress.length).toBeGreaterThan(0);
    await core.handlers['shell:show-file']({ id: snapshot.jobs[0]!.id });
    await core.handlers['shell:open-folder']({});
    expect(progress.some((update) => update.jobs.length > 0)).toBe(true);
    expect(open.at(-1)!.shellCalls).toEqual([`showItemInFolder ${path.join(downloadFolder, snapshot.jobs[0]!.localName)}`, `openPath ${downloadFolder}`]);
    expect(core.hasActiveDownloads()).toBe(false);
    expect(core.countActiveDownloads()).toBe(0);
  });

  it('queues by reference: chosen rows of a kept search, or a query it lists itself; never entries from the window', async () => {
    const { core, downloadFolder } = await harness();
    await core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const query = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '2hours' } };
    const listing = await completedSearch(core.handlers, query);
    const chosen = await core.handlers['downloads:enqueue']({ searchId: listing.searchId, selection: positionsChosen(1, 0) });
    expect(chosen.queued).toBe(2);
    const byQuery = await core.handlers['downloads:enqueue']({ query, folder: path.join(downloadFolder, 'by-query') });
    // A chosen file may finish before the second request: then it is reused (copied), not fetched again.
    expect(byQuery).toMatchObject({ folder: path.join(downloadFolder, 'by-query') });
    expect(byQuery.queued + byQuery.reused.count).toBe(listing.files.length);
    const snapshot = await core.handlers['downloads:snapshot']();
    const byFolder = (folder: string) =>
      snapshot.jobs
        .filter((job) => job.folder === folder)
        .map((job) => job.filename)
        .sort();
    expect(byFolder(downloadFolder)).toEqual([listing.files[0]!.filename, listing.files[1]!.filename].sort());
    expect(byFolder(path.join(downloadFolder, 'by-query'))).toEqual(listing.files.map((f) => f.filename).sort());
    // A search the core does not keep, and the old ways (a listing's id, entries with URLs), are refused.
    for (const request of [{ searchId: 'no-such-search' }, { listingId: 'a-listing', entries: [0] }, { files: listing.files }]) {
      expect(await invokeHandler(core.handlers, 'downloads:enqueue', request)).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    }
  });

  it('validates settings and applies them at once', async () => {
    const { core, events } = await harness();
    const bad = await invokeHandler(core.handlers, 'settings:update', { concurrency: 40 });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: 'Concurrency must be a whole number from 1 to 16.' } });
    // Several changes at once: the refusal names the setting it is about, for the form to show it there.
    expect(await invokeHandler(core.handlers, 'settings:update', { retries: 2, concurrency: 40 })).toMatchObject({
      ok: false,
      error: { field: 'concurrency' },
    });
    expect(await invokeHandler(core.handlers, 'settings:update', { concurrency: 2, baseUrl: 'ftp://nope' })).toMatchObject({
      ok: false,
      error: { field: 'baseUrl' },
    });
    expect(await invokeHandler(core.handlers, 'settings:update', { downloadFolder: 'relative/path' })).toMatchObject({ ok: false });
    expect(await invokeHandler(core.handlers, 'settings:update', { baseUrl: 'ftp://nope' })).toMatchObject({ ok: false });
    const saved = await core.handlers['settings:update']({ concurrency: 8, existingFiles: 'keep-both' });
    expect(saved).toMatchObject({ concurrency: 8, existingFiles: 'keep-both' });
    expect(events.some((e) => e.event === 'settings:changed')).toBe(true);
    // The window's place is saved quietly: no settings:changed for every move.
    const announced = events.length;
    core.saveWindowBounds({ x: 10, y: 20, width: 1200, height: 800, maximized: false });
    expect(events).toHaveLength(announced);
    expect((await core.handlers['settings:get']()).windowBounds).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: false });
  });

  it('refuses unknown keys in settings:update and saves nothing', async () => {
    const { core, settings, events } = await harness();
    const before = structuredClone(settings.saved);
    for (const change of [JSON.parse('{"__proto__": {"x": 1}, "nope": 2}'), { concurrency: 2, nope: 2 }]) {
      const result = await invokeHandler(core.handlers, 'settings:update', change);
      expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('"nope"') } });
    }
    expect(settings.saved).toEqual(before);
    expect(Object.getPrototypeOf(settings.saved)).toBe(Object.prototype);
    expect(Object.keys(settings.saved)).not.toContain('nope');
    expect(events.some((e) => e.event === 'settings:changed')).toBe(false);
    expect(await core.handlers['settings:get']()).toEqual(before);
  });

  it('hands the listing size limit to the client, at start and when it changes', async () => {
    const { core } = await harness({ settings: { maxListingMegabytes: 1 } });
    // A listing of a little over 1 MB: refused under the 1 MB limit, read under a 2 MB one.
    emulator().transformListing = (listing) => ({ ...listing, padding: 'x'.repeat(1024 * 1024) });
    const search = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '1hour' } };
    expect(await endedSearch(core.handlers, search)).toMatchObject({
      complete: false,
      failure: { kind: 'invalid-response', message: expect.stringMatching(/is larger than the 1 MB limit; .*raise the listing size limit in Settings\.$/) },
    });
    await core.handlers['settings:update']({ maxListingMegabytes: 2 });
    expect((await completedSearch(core.handlers, search)).files.length).toBeGreaterThan(2);
  });

  it('switches to the demo server and back, signing out on the way', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['settings:update']({ useDemoServer: true });
    const info = await h.core.handlers['app:info']();
    expect(info.serverKind).toBe('demo');
    expect(info.serverUrl).toBe(h.demoStarts[0]!.url);
    expect(await h.core.handlers['session:get']()).toMatchObject({ signedIn: false });
    expect((await h.core.handlers['catalog:instruments']()).length).toBe(2);
    await h.core.handlers['settings:update']({ useDemoServer: false });
    expect((await h.core.handlers['app:info']()).serverUrl).toBe(emulator().url);
  });

  it('keeps a remembered session between launches (through the vault) and forgets it when asked', async () => {
    const first = await harness({ settings: { rememberSession: true } });
    await first.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    expect(first.vault.value).toContain('session');
    await first.core.close();
    open.splice(open.indexOf(first), 1);
    const second = await harness({ settings: { rememberSession: true, lastEmail: DEMO_EMAIL }, vaultValue: first.vault.value });
    expect(await second.core.handlers['session:get']()).toMatchObject({ signedIn: true, email: DEMO_EMAIL });
    await second.core.handlers['settings:update']({ rememberSession: false });
    expect(second.vault.value).toBeNull();
  });

  it('says what web mode cannot do, and only opens web links', async () => {
    const web = await harness();
    expect(await invokeHandler(web.core.handlers, 'shell:open-folder', {})).toMatchObject({ ok: false, error: { kind: 'unsupported' } });
    const desktop = await harness({ shell: true });
    expect(await invokeHandler(desktop.core.handlers, 'shell:open-external', { url: 'file:///etc/passwd' })).toMatchObject({ ok: false });
    await desktop.core.handlers['shell:open-external']({ url: 'https://doi.org/10.5065/D69G5JV8' });
    expect(desktop.shellCalls).toEqual(['openExternal https://doi.org/10.5065/D69G5JV8']);
    expect(await desktop.core.handlers['disk:free-space']({ folder: `${desktop.downloadFolder}/not/yet/there` })).toBeGreaterThan(0);
    // A campaign's folder is chosen without changing the download folder setting.
    const before = await desktop.core.handlers['settings:get']();
    expect(await desktop.core.handlers['shell:choose-folder']({ current: '/somewhere' })).toBe(desktop.downloadFolder);
    expect(await desktop.core.handlers['settings:get']()).toEqual(before);
    expect(await invokeHandler(web.core.handlers, 'shell:choose-folder', {})).toMatchObject({ ok: false, error: { kind: 'unsupported' } });
  });
});
