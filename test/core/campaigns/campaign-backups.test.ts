// Campaigns live in the ledger's file; each also has a copy in <state folder>/campaigns/. A ledger replaced
// after damage, or deleted, takes the campaigns back from those copies: as last changed, and without the deleted.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_BACKUP_FOLDER, CampaignBackups } from '../../../src-main/core/campaigns/campaign-backups';
import { readCampaignFile } from '../../../src-main/core/campaigns/campaign-file-reader';
import { openStateLedger } from '../../../src-main/core/app/open-engine';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { MlsoError } from '../../../src-main/core/errors';
import { cliAgainst, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { deleteLedger, garbleHeader } from '../downloads/ledger-damage';
import { useHarnesses, type Harness } from '../downloads/engine-harness';
import { KCOR_DAY, UCOMP_DAY, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness, closeEarly } = useHarnesses(emulator);
const mlsoDl = cliAgainst(emulator);

/** A shared campaign file "season" naming two files, each with the SHA-256 it promises. */
function sharedSeason(): string {
  const files = [1, 2].map((index) => {
    const filename = `20250324_00000${index}_kcor_l2_pb.fts.gz`;
    const url = `https://api.example.org/download/kcor/${filename}`;
    return { path: filename, filename, url, instrument: 'kcor', product: 'pb', 'date-obs': '2025-03-24T21:03:04', sha256: String(index).repeat(64) };
  });
  return JSON.stringify({ format: 'mlso-downloader-campaign', version: 1, name: 'season', layout: '', queries: [KCOR_DAY], files });
}

const promised = (h: Harness, name: string) =>
  serviceOver(h)
    .store.files(serviceOver(h).store.require(name).id)
    .map((file) => [file.filename, file.expectedSha256]);

/** What a campaign is, without what a new ledger gives it afresh (its id, when it was made, its last sync). */
function definitions(h: Harness) {
  return serviceOver(h)
    .store.list()
    .map(({ name, folder, layout, queries, autoSyncHours }) => ({ name, folder, layout, queries, autoSyncHours }));
}

/** A state folder whose ledger holds "Eclipse" and "Ucomp survey" as last changed, and no longer "Dropped". */
async function threeCampaignsOneDeleted() {
  const h = await harness({ batchId: 'campaigns' });
  const service = serviceOver(h);
  const parent = await temporaryFolder();
  await service.create({ name: 'Eclipse', folder: path.join(parent, 'eclipse'), queries: [KCOR_DAY] });
  await service.create({ name: 'Survey', folder: path.join(parent, 'survey'), layout: '{instrument}', queries: [UCOMP_DAY], autoSyncHours: 24 });
  await service.create({ name: 'Dropped', folder: path.join(parent, 'dropped'), queries: [KCOR_DAY] });
  await service.addQuery('Eclipse', UCOMP_DAY);
  await service.update('Survey', { name: 'Ucomp survey', layout: '{instrument}/{yyyy}' });
  service.remove('Dropped');
  const before = definitions(h);
  expect(before.map((campaign) => campaign.name)).toEqual(['Eclipse', 'Ucomp survey']);
  await closeEarly(h);
  return { stateFolder: h.stateFolder, before };
}

describe('campaign copies beside the ledger', () => {
  it('bring every campaign back, as last changed, when a damaged ledger is replaced; a deleted one stays deleted', async () => {
    const { stateFolder, before } = await threeCampaignsOneDeleted();
    const ledgerFile = path.join(stateFolder, LEDGER_FILE);
    await garbleHeader(ledgerFile);

    const h = await harness({ batchId: 'after-damage' }, stateFolder);
    expect(h.recovered).toBeDefined();
    expect(definitions(h)).toEqual(before);
    const copies = path.join(stateFolder, CAMPAIGN_BACKUP_FOLDER);
    expect(h.campaignRestore).toEqual({ folder: copies, restored: ['Eclipse', 'Ucomp survey'], unreadable: [] });
    expect(h.notice).toBe(
      `The download ledger ${ledgerFile} was damaged (file is not a database), so it was moved to ${h.recovered!.movedTo} and a new one was ` +
        `started; downloads carry on. The campaigns "Eclipse" and "Ucomp survey" were restored from their copies in ${copies}.`,
    );
  });

  it('bring the campaigns back when the ledger was deleted, and a sync then finds the files already there', async () => {
    const h = await harness({ batchId: 'first' });
    const service = serviceOver(h);
    const campaign = await service.create({ name: 'Eclipse', folder: path.join(await temporaryFolder(), 'eclipse'), queries: [KCOR_DAY] });
    const first = await syncAndWait(service, h, campaign.name);
    expect(first.total.onDisk).toBeGreaterThan(2);
    await closeEarly(h);
    await deleteLedger(h.stateFolder);
    emulator().resetStats();

    const again = await harness({ batchId: 'after-deletion' }, h.stateFolder);
    expect(again.recovered).toBeUndefined();
    expect(again.notice).toBe(
      `The download ledger ${path.join(h.stateFolder, LEDGER_FILE)} was missing or empty, so a new one was started. ` +
        `The campaign "Eclipse" was restored from its copy in ${path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER)}.`,
    );
    const resynced = await syncAndWait(serviceOver(again), again, 'Eclipse');
    expect(resynced.total).toMatchObject({ listed: first.total.listed, onDisk: first.total.onDisk, queued: 0, failed: 0, missing: 0 });
    expect(emulator().stats().downloadsStarted).toBe(0);
  });

  it('are written for campaigns made before copies were kept, when the ledger next opens', async () => {
    const { stateFolder, before } = await threeCampaignsOneDeleted();
    const copies = path.join(stateFolder, CAMPAIGN_BACKUP_FOLDER);
    await rm(copies, { recursive: true });
    await closeEarly(await harness({ batchId: 'sound' }, stateFolder));
    expect(await readdir(copies)).toHaveLength(2);

    await garbleHeader(path.join(stateFolder, LEDGER_FILE));
    expect(definitions(await harness({ batchId: 'after-damage' }, stateFolder))).toEqual(before);
  });

  it('read as campaign files, so `campaign import` takes them too', async () => {
    const { stateFolder, before } = await threeCampaignsOneDeleted();
    const copies = path.join(stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const names = (await readdir(copies)).sort();
    expect(names).toEqual([
      expect.stringMatching(/^eclipse-[0-9a-f]{8}\.mlso-campaign\.json$/),
      expect.stringMatching(/^ucomp-survey-[0-9a-f]{8}\.mlso-campaign\.json$/),
    ]);
    const shared = readCampaignFile(await readFile(path.join(copies, names[1]!), 'utf8'));
    expect(shared).toEqual({ name: 'Ucomp survey', layout: before[1]!.layout, autoSyncHours: 24, queries: before[1]!.queries, files: [] });
  });

  it('that cannot be read are named in the notice and left alone; the others come back and the start carries on', async () => {
    const { stateFolder } = await threeCampaignsOneDeleted();
    const copies = path.join(stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const [eclipse] = (await readdir(copies)).sort();
    await writeFile(path.join(copies, eclipse!), '{"format": "mlso-downloader-campaign", "version": 1, "name": "Eclipse"');
    await garbleHeader(path.join(stateFolder, LEDGER_FILE));

    const h = await harness({ batchId: 'after-damage' }, stateFolder);
    expect(definitions(h).map((campaign) => campaign.name)).toEqual(['Ucomp survey']);
    expect(h.notice).toMatch(/^The download ledger .* was damaged/);
    expect(h.notice).toContain(
      `The campaign "Ucomp survey" was restored from its copy in ${copies}. The campaign copy ${path.join(copies, eclipse!)} could not be read ` +
        '(That is not a campaign file: it is not JSON. Export one with `campaign export NAME --format campaign`); it was left as it is.',
    );
    expect(await readFile(path.join(copies, eclipse!), 'utf8')).toMatch(/^\{"format"/);
  });

  it('that cannot be read, when no other comes back, are still named when a deleted ledger is started anew', async () => {
    const h = await harness({ batchId: 'one' });
    await serviceOver(h).create({ name: 'Eclipse', folder: path.join(await temporaryFolder(), 'eclipse'), queries: [KCOR_DAY] });
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const [eclipse] = await readdir(copies);
    await writeFile(path.join(copies, eclipse!), 'not JSON');
    await deleteLedger(h.stateFolder);

    const again = await harness({ batchId: 'two' }, h.stateFolder);
    expect(definitions(again)).toEqual([]);
    expect(again.campaignRestore).toEqual({ folder: copies, restored: [], unreadable: [expect.objectContaining({ file: path.join(copies, eclipse!) })] });
    expect(again.notice?.startsWith(`The download ledger ${path.join(h.stateFolder, LEDGER_FILE)} was missing or empty, so a new one was started. `)).toBe(
      true,
    );
    expect(again.notice).toContain(`The campaign copy ${path.join(copies, eclipse!)} could not be read`);
  });

  it('give no notice at all when the ledger opens as it was', async () => {
    const h = await harness({ batchId: 'one' });
    await serviceOver(h).create({ name: 'Eclipse', folder: path.join(await temporaryFolder(), 'eclipse'), queries: [KCOR_DAY] });
    await closeEarly(h);
    const ledgerOnly = await openStateLedger(h.stateFolder);
    ledgerOnly.close();
    expect(ledgerOnly).not.toHaveProperty('notice');
    const again = await harness({ batchId: 'two' }, h.stateFolder);
    expect(again.notice).toBeUndefined();
    expect(again.campaignRestore).toBeUndefined();
    expect(again.recovered).toBeUndefined();
  });

  it('that cannot be written undo the change and say so plainly', async () => {
    const h = await harness({ batchId: 'campaigns' });
    const service = serviceOver(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    await writeFile(copies, 'a file where the copies belong');
    const error = await service
      .create({ name: 'Eclipse', folder: path.join(await temporaryFolder(), 'eclipse'), queries: [KCOR_DAY] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MlsoError);
    expect((error as Error).message).toBe(
      `Cannot write to the state folder ${copies} (a file of that name is in the way). Make it writable, or use another --state-dir.`,
    );
    expect(service.store.list()).toEqual([]);
  });

  it("keep an imported campaign's shared file list, which a new ledger takes back with it, under a new name too", async () => {
    const h = await harness({ batchId: 'import' });
    const service = serviceOver(h);
    const folder = await temporaryFolder();
    service.importFile(sharedSeason(), { folder: path.join(folder, 'season'), defaultParent: folder });
    const before = promised(h, 'season');
    expect(before.map(([, sha256]) => sha256)).toEqual(['1'.repeat(64), '2'.repeat(64)]);
    await service.update('season', { name: 'Winter' });
    // One that failed half-way keeps no list.
    expect(() => service.importFile(sharedSeason().replace('"sha256":"2', '"sha256":"x'), { name: 'broken', defaultParent: folder })).toThrow(
      /not a campaign file/,
    );
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    expect((await readdir(copies)).sort()).toEqual([
      expect.stringMatching(/^winter-[0-9a-f]{8}\.mlso-campaign\.json$/),
      expect.stringMatching(/^winter-[0-9a-f]{8}\.shared-files\.jsonl$/),
    ]);

    await garbleHeader(path.join(h.stateFolder, LEDGER_FILE));
    const again = await harness({ batchId: 'after-damage' }, h.stateFolder);
    expect(again.campaignRestore).toEqual({ folder: copies, restored: ['Winter'], unreadable: [] });
    expect(promised(again, 'Winter')).toEqual(before);
  });

  it('keep, once, the promises of a campaign imported before shared file lists were kept: a new ledger takes them back', async () => {
    const h = await harness({ batchId: 'import' });
    const folder = await temporaryFolder();
    serviceOver(h).importFile(sharedSeason(), { folder: path.join(folder, 'season'), defaultParent: folder });
    const before = promised(h, 'season');
    // As a ledger from before migration 10 opens: the campaign unmarked, and no list beside its copy.
    h.state.connection.exec('UPDATE campaigns SET shared_list_kept = 0');
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const list = path.join(
      copies,
      (await readdir(copies)).find((name) => name.endsWith('.jsonl'))!,
    );
    await rm(list);

    await closeEarly(await harness({ batchId: 'upgraded' }, h.stateFolder));
    expect((await readFile(list, 'utf8')).trim().split('\n')).toHaveLength(2);
    await garbleHeader(path.join(h.stateFolder, LEDGER_FILE));
    expect(promised(await harness({ batchId: 'after-damage' }, h.stateFolder), 'season')).toEqual(before);
  });

  it('take a campaign back without its shared file list when the list cannot be read, saying so and leaving it', async () => {
    const h = await harness({ batchId: 'import' });
    const folder = await temporaryFolder();
    serviceOver(h).importFile(sharedSeason(), { folder: path.join(folder, 'season'), defaultParent: folder });
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const list = path.join(
      copies,
      (await readdir(copies)).find((name) => name.endsWith('.jsonl'))!,
    );
    await writeFile(list, `${(await readFile(list, 'utf8')).split('\n')[0]}\n{"path": "cut short`);
    await garbleHeader(path.join(h.stateFolder, LEDGER_FILE));

    const again = await harness({ batchId: 'after-damage' }, h.stateFolder);
    expect(promised(again, 'season')).toEqual([]);
    expect(again.notice).toContain(
      `The campaign "season" was restored from its copy in ${copies}. The shared file list ${list} could not be read (line 2 is not a file entry (not JSON)), so "season" came back without it; it was left as it is.`,
    );
    expect(await readFile(list, 'utf8')).toMatch(/cut short$/);
  });

  it('left under an old name by a rename stopped half-way are not taken for another campaign', async () => {
    const h = await harness({ batchId: 'one' });
    const campaign = await serviceOver(h).create({ name: 'Eclipse', folder: path.join(await temporaryFolder(), 'eclipse'), queries: [KCOR_DAY] });
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    // The new name's copy written, the ledger's change never committed.
    new CampaignBackups(copies).save({ ...campaign, name: 'Corona' });
    expect(await readdir(copies)).toHaveLength(2);

    const again = await harness({ batchId: 'two' }, h.stateFolder);
    expect(definitions(again).map((each) => each.name)).toEqual(['Eclipse']);
    expect(again.notice).toBeUndefined();
    expect(await readdir(copies)).toEqual([expect.stringMatching(/^eclipse-/)]);
  });

  it('lose the lists an import killed half-way left, at the next start; a running import keeps its own', async () => {
    const h = await harness({ batchId: 'one' });
    await closeEarly(h);
    const copies = path.join(h.stateFolder, CAMPAIGN_BACKUP_FOLDER);
    const ended = spawn(process.execPath, ['-e', '']);
    ended.on('error', () => undefined);
    await once(ended, 'close');
    const abandoned = path.join(copies, `${ended.pid!}-0b7e3c1a-5f1d-4c55-9a3e-1f2b3c4d5e6f.shared-files.partial`);
    const running = path.join(copies, `${process.pid}-0b7e3c1a-5f1d-4c55-9a3e-1f2b3c4d5e6f.shared-files.partial`);
    await mkdir(copies, { recursive: true });
    await writeFile(abandoned, '{}\n');
    await writeFile(running, '{}\n');
    await closeEarly(await harness({ batchId: 'two' }, h.stateFolder));
    expect(await readdir(copies)).toEqual([path.basename(running)]);
  });

  it('come back on the command line too, which says so once on stderr', async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'eclipse');
    const day = ['--start-date', '2025-03-24', '--end-date', '2025-03-24T23:59:59'];
    expect(await mlsoDl('campaign', 'create', 'Eclipse', '-i', 'kcor', '-p', 'pb', ...day, '--output-dir', folder, '--state-dir', state)).toMatchObject({
      status: 0,
    });
    await garbleHeader(path.join(state, LEDGER_FILE));

    const listed = await mlsoDl('campaign', 'list', '--json', '--state-dir', state);
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string; folder: string }[]).map(({ name, folder }) => ({ name, folder }))).toEqual([
      { name: 'Eclipse', folder },
    ]);
    const lines = listed.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^mlso-dl: The download ledger .* was damaged .*; downloads carry on\\. The campaign "Eclipse" was restored from its copy in ${path.join(state, CAMPAIGN_BACKUP_FOLDER)}\\.$`,
      ),
    );
  });
});
