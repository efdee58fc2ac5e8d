import { readdir, rm, truncate } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignOverview, CampaignSyncProgress, CampaignVerifyProgress } from '../../../src-shared/campaigns/campaign-types';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { isDue } from '../../../src-main/core/campaigns/auto-sync';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
const open: CoreHarness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
});
async function harness(): Promise<CoreHarness> {
  const h = await coreHarness(emulator());
  open.push(h);
  return h;
}

const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '2hours' } };

describe('campaigns behind the contract', () => {
  it('creates a campaign in the download folder, syncs it with progress events, and counts its files as they arrive', async () => {
    const h = await harness();
    const created = await h.core.handlers['campaigns:create']({ name: 'Eclipse 2024', queries: [QUERY], layout: '{yyyy}/{mm}' });
    expect(created).toMatchObject({
      name: 'Eclipse 2024',
      folder: path.join(h.downloadFolder, 'eclipse-2024'),
      layout: '{yyyy}/{mm}',
      syncing: false,
      lastSync: null,
    });
    expect(created.counts).toEqual({
      files: 0,
      onDisk: 0,
      downloaded: 0,
      reused: 0,
      alreadyThere: 0,
      differs: 0,
      queued: 0,
      failed: 0,
      changed: 0,
      missing: 0,
      notSynced: 0,
      noLongerListed: 0,
    });

    expect(await invokeHandler(h.core.handlers, 'campaigns:sync', { name: 'Eclipse 2024' })).toMatchObject({ ok: false, error: { kind: 'session' } });
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const report = await h.core.handlers['campaigns:sync']({ name: 'eclipse 2024' });
    expect(report.total.listed).toBeGreaterThan(2);
    expect(report.total.new).toBe(report.total.listed);
    const phases = h.events.filter((e) => e.event === 'campaigns:sync-progress').map((e) => (e.payload as CampaignSyncProgress).phase);
    expect(phases).toEqual(expect.arrayContaining(['listing', 'checking', 'queueing']));
    expect(['downloading', 'done']).toContain(phases.at(-1));

    const latest = async () => (await h.core.handlers['campaigns:list']())[0]!;
    await waitFor(async () => (await latest()).counts.onDisk === report.total.listed, 'every file on disk');
    expect(await readdir(path.join(h.downloadFolder, 'eclipse-2024', '2025'))).toEqual(['03']);
    // The window hears of the counts moving, not only of the sync's start and end.
    await waitFor(
      () => h.events.some((e) => e.event === 'campaigns:changed' && (e.payload as CampaignOverview[])[0]?.counts.onDisk === report.total.listed),
      'a campaigns:changed event with every file on disk',
    );
    expect((await latest()).lastSync?.total.listed).toBe(report.total.listed);

    // Each file with its state and job, and its bytes through files:read (quick-look, the player).
    const files = await h.core.handlers['campaigns:files']({ name: 'Eclipse 2024' });
    expect(files).toHaveLength(report.total.listed);
    expect(files.every((file) => file.state === 'done' && file.jobId !== null && file.relativePath.startsWith('2025/03/'))).toBe(true);
    const read = await h.core.handlers['files:read']({ id: files[0]!.jobId! });
    expect(read.name).toBe(files[0]!.filename);
    expect(Buffer.from(read.bytes).equals(await emulator().fileBytes('kcor', files[0]!.filename))).toBe(true);
    expect(await invokeHandler(h.core.handlers, 'files:read', { id: 987_654 })).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    await rm(path.join(h.downloadFolder, 'eclipse-2024', files[1]!.relativePath));
    expect(await invokeHandler(h.core.handlers, 'files:read', { id: files[1]!.jobId! })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: expect.stringContaining('is no longer in') },
    });
  });

  it('verifies, exports the manifest with the acknowledgement and the campaign file, edits and deletes', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['campaigns:create']({ name: 'season', queries: [QUERY] });
    const report = await h.core.handlers['campaigns:sync']({ name: 'season' });
    await waitFor(async () => (await h.core.handlers['campaigns:list']())[0]!.counts.onDisk === report.total.listed, 'every file on disk');
    expect(await h.core.handlers['campaigns:verify']({ name: 'season' })).toMatchObject({ onDisk: report.total.listed, missing: 0, changed: 0 });

    const csv = await h.core.handlers['campaigns:export']({ name: 'season', format: 'csv' });
    expect(csv).toMatchObject({ fileName: 'season-manifest.csv', mediaType: 'text/csv' });
    expect(csv.text.split('\r\n')).toHaveLength(report.total.listed + 2);
    expect(csv.acknowledgement).toContain('COSMO K-Coronagraph (KCor), doi:10.5065/D69G5JV8');
    const shared = await h.core.handlers['campaigns:export']({ name: 'season', format: 'campaign', includeFiles: true });
    expect(JSON.parse(shared.text).files).toHaveLength(report.total.listed);

    const imported = await h.core.handlers['campaigns:import']({ text: shared.text, name: 'season copy' });
    expect(imported).toMatchObject({
      name: 'season copy',
      folder: path.join(h.downloadFolder, 'season-copy'),
      // Never synced here: its files are not yet synced, not missing (issue 21).
      counts: { files: report.total.listed, missing: 0, notSynced: report.total.listed },
    });
    expect(await invokeHandler(h.core.handlers, 'campaigns:import', { text: shared.text })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: 'A campaign called "season" already exists: choose another name.' },
    });
    expect(await invokeHandler(h.core.handlers, 'campaigns:import', { text: '{"format":"zip"}' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input' },
    });

    const edited = await h.core.handlers['campaigns:update']({ name: 'season', change: { name: 'Season 25', autoSyncHours: 6 } });
    expect(edited).toMatchObject({ name: 'Season 25', autoSyncHours: 6, counts: { onDisk: report.total.listed } });
    for (const change of [{ layout: '../x' }, { autoSyncHours: 0 }, { queries: [] }, { folder: 'relative' }]) {
      expect(await invokeHandler(h.core.handlers, 'campaigns:update', { name: 'Season 25', change })).toMatchObject({
        ok: false,
        error: { kind: 'invalid-input' },
      });
    }
    await h.core.handlers['campaigns:delete']({ name: 'Season 25' });
    expect((await h.core.handlers['campaigns:list']()).map((c) => c.name)).toEqual(['season copy']);
    // Its files stay on disk.
    expect((await readdir(path.join(h.downloadFolder, 'season'))).length).toBe(report.total.listed);
  });

  it('verifies with progress events, and Cancel stops the hashing and leaves the ledger as it was', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['campaigns:create']({ name: 'season', queries: [QUERY] });
    const report = await h.core.handlers['campaigns:sync']({ name: 'season' });
    const list = async () => (await h.core.handlers['campaigns:list']())[0]!;
    await waitFor(async () => (await list()).counts.onDisk === report.total.listed, 'every file on disk');
    const files = await h.core.handlers['campaigns:files']({ name: 'season' });
    const folder = path.join(h.downloadFolder, 'season');
    // A file gone, and the last one grown into a sparse 256 GiB: minutes of hashing, and no disk space.
    await rm(path.join(folder, files[0]!.relativePath));
    await truncate(path.join(folder, files.at(-1)!.relativePath), 256 * 1024 ** 3);
    const before = await list();

    const verifying = invokeHandler(h.core.handlers, 'campaigns:verify', { name: 'season' });
    const progress = () => h.events.filter((e) => e.event === 'campaigns:verify-progress').map((e) => e.payload as CampaignVerifyProgress);
    await waitFor(() => progress().length > 0, 'a verify-progress event');
    expect(await h.core.handlers['campaigns:cancel-verify']({ name: 'SEASON' })).toBe(true);
    expect(await verifying).toMatchObject({ ok: false, error: { kind: 'cancelled', message: 'The verify was cancelled.' } });
    expect(progress().at(-1)).toMatchObject({ campaign: 'season', total: files.length });
    expect(progress().at(-1)!.done).toBeLessThan(files.length);
    // Nothing recorded: the file gone is not counted missing, nor the grown one changed, until a verify finishes.
    expect((await list()).counts).toEqual(before.counts);
    expect(await h.core.handlers['campaigns:cancel-verify']({ name: 'season' })).toBe(false);

    await rm(path.join(folder, files.at(-1)!.relativePath));
    expect(await h.core.handlers['campaigns:verify']({ name: 'season' })).toMatchObject({ missing: 2, onDisk: files.length - 2 });
    expect(progress().at(-1)).toEqual({ campaign: 'season', done: files.length, total: files.length });
  });

  it("gives each file the standing the campaign's counts use: one that differs from the shared list is apart", async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['campaigns:create']({ name: 'origin', queries: [QUERY] });
    const first = await h.core.handlers['campaigns:sync']({ name: 'origin' });
    await waitFor(async () => (await h.core.handlers['campaigns:list']())[0]!.counts.onDisk === first.total.listed, 'every file on disk');
    const shared = JSON.parse((await h.core.handlers['campaigns:export']({ name: 'origin', format: 'campaign', includeFiles: true })).text) as {
      files: { filename: string; sha256: string }[];
    };
    shared.files[0]!.sha256 = 'f'.repeat(64);
    await h.core.handlers['campaigns:import']({ text: JSON.stringify(shared), name: 'copy' });
    await h.core.handlers['campaigns:sync']({ name: 'copy' });
    const copy = async () => (await h.core.handlers['campaigns:list']()).find((campaign) => campaign.name === 'copy')!;
    // Every file on disk or differing (the list's counts are those last counted, which may be from before the sync).
    const synced = ({ counts }: CampaignOverview) => counts.files > 0 && counts.onDisk + counts.differs === counts.files;
    await waitFor(async () => synced(await copy()), 'the copy synced');
    const files = await h.core.handlers['campaigns:files']({ name: 'copy' });
    const standings = files.map((file) => file.standing);
    expect(files.find((file) => file.filename === shared.files[0]!.filename)?.standing).toBe('differs');
    const { counts } = await copy();
    expect([standings.filter((standing) => standing === 'onDisk').length, standings.filter((standing) => standing === 'differs').length]).toEqual([
      counts.onDisk,
      counts.differs,
    ]);
    expect(counts.differs).toBe(1);
  });

  it('cancels a sync still listing: it ends as cancelled, queues nothing, and a new sync can start', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['campaigns:create']({ name: 'slow', queries: [QUERY] });
    emulator().setOptions({ latencyMs: 2000 });
    const syncing = invokeHandler(h.core.handlers, 'campaigns:sync', { name: 'slow' });
    await waitFor(async () => (await h.core.handlers['campaigns:list']())[0]!.syncing, 'the sync to start');
    expect(await h.core.handlers['campaigns:cancel-sync']({ name: 'SLOW' })).toBe(true);
    expect(await syncing).toMatchObject({ ok: false, error: { kind: 'cancelled', message: 'The sync was cancelled.' } });
    expect((await h.core.handlers['campaigns:list']())[0]).toMatchObject({ syncing: false, counts: { files: 0, queued: 0 } });
    expect(h.events.filter((e) => e.event === 'campaigns:sync-progress').at(-1)?.payload).toMatchObject({ phase: 'done' });
    expect(await h.core.handlers['campaigns:cancel-sync']({ name: 'slow' })).toBe(false);
    emulator().setOptions({ latencyMs: 0 });
    expect((await h.core.handlers['campaigns:sync']({ name: 'slow' })).total.listed).toBeGreaterThan(2);
  });

  it('cancels the sync of the campaign named, whatever case or accent composition the name is typed in', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    await h.core.handlers['campaigns:create']({ name: 'Été', queries: [QUERY] });
    expect(await invokeHandler(h.core.handlers, 'campaigns:create', { name: 'e\u0301te\u0301', queries: [QUERY] })).toMatchObject({
      ok: false,
      error: { message: 'A campaign called "Été" already exists: choose another name.' },
    });
    emulator().setOptions({ latencyMs: 2000 });
    const syncing = invokeHandler(h.core.handlers, 'campaigns:sync', { name: 'été' });
    await waitFor(async () => (await h.core.handlers['campaigns:list']())[0]!.syncing, 'the sync to start');
    expect(await invokeHandler(h.core.handlers, 'campaigns:sync', { name: 'ÉTÉ' })).toMatchObject({
      ok: false,
      error: { message: '"Été" is already syncing.' },
    });
    expect(await h.core.handlers['campaigns:cancel-sync']({ name: 'E\u0301TE\u0301' })).toBe(true);
    expect(await syncing).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
    emulator().setOptions({ latencyMs: 0 });
  });

  it('never syncs an imported campaign by itself: a shared file does not carry auto-sync over', async () => {
    const h = await harness();
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const text = JSON.stringify({ format: 'mlso-downloader-campaign', version: 1, name: 'shared', layout: '', autoSyncHours: 1, queries: [QUERY] });
    expect(await h.core.handlers['campaigns:import']({ text })).toMatchObject({ name: 'shared', autoSyncHours: null });
    expect(await h.core.syncDueCampaigns(Date.now())).toEqual([]);
  });

  it('refuses a filter the product does not accept, naming those it does', async () => {
    const h = await harness();
    const result = await invokeHandler(h.core.handlers, 'campaigns:create', { name: 'x', queries: [{ ...QUERY, filters: { 'wave-region': '1074' } }] });
    expect(result).toMatchObject({ ok: false, error: { kind: 'invalid-input', message: expect.stringContaining('does not accept the wave-region filter') } });
  });

  it('syncs automatically the campaigns that are due, while someone is signed in', async () => {
    expect(isDue({ autoSyncHours: null, lastSyncAt: null }, Date.now())).toBe(false);
    expect(isDue({ autoSyncHours: 2, lastSyncAt: null }, Date.now())).toBe(true);
    expect(isDue({ autoSyncHours: 2, lastSyncAt: '2026-01-01T00:00:00Z' }, Date.parse('2026-01-01T01:59:00Z'))).toBe(false);
    expect(isDue({ autoSyncHours: 2, lastSyncAt: '2026-01-01T00:00:00Z' }, Date.parse('2026-01-01T02:00:00Z'))).toBe(true);

    const h = await harness();
    await h.core.handlers['campaigns:create']({ name: 'hourly', queries: [QUERY], autoSyncHours: 1 });
    await h.core.handlers['campaigns:create']({ name: 'manual', queries: [QUERY] });
    const tick = (now: number) => h.core.syncDueCampaigns(now);
    expect(await tick(Date.now())).toEqual([]); // nobody signed in
    await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    expect(await tick(Date.now())).toEqual(['hourly']);
    expect(await tick(Date.now() + 30 * 60_000)).toEqual([]);
    expect(await tick(Date.now() + 61 * 60_000)).toEqual(['hourly']);
  });
});
