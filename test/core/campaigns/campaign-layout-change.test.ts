// A campaign's layout changed: the files already downloaded move on disk to their new places (nothing is fetched
// again), their ledger jobs with them; missing or changed copies are left to the next sync; two files that would
// share a place refuse the change; an interrupted change is picked up where it stopped.
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { targetPathOf } from '../../../src-main/core/campaigns/campaign-paths';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { KCOR_DAY, UCOMP_DAY, expectFilesIntact, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

async function syncedCampaign(layout: string) {
  const h = await harness();
  const service = serviceOver(h);
  const folder = path.join(await temporaryFolder(), 'season');
  const campaign = await service.create({ name: 'season', folder, layout, queries: [UCOMP_DAY, KCOR_DAY] });
  const first = await syncAndWait(service, h, campaign.name);
  expect(first.total).toMatchObject({ missing: 0, failed: 0 });
  return { h, service, campaign, files: service.store.files(campaign.id) };
}

describe("a campaign's layout changed", () => {
  it('moves every downloaded file to its new place with its job; the next sync fetches nothing and verify is clean', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    const result = await service.change(campaign.name, { layout: '{instrument}/{yyyy}/{mm}' });
    expect(result.moves).toEqual({ moved: files.length, leftForSync: 0 });
    for (const file of files) {
      const now = service.store.files(campaign.id).find((record) => record.filename === file.filename)!;
      expect(now.relativePath).toBe(`${file.instrument}/2025/03/${file.filename}`);
      expect(now).toMatchObject({ jobId: file.jobId, state: 'done', sha256: file.sha256 });
      expect(h.ledger.get(file.jobId!)!.targetPath).toBe(now.targetPath);
      expect(await exists(file.targetPath)).toBe(false);
    }
    // The old layout's folders went with their files.
    expect((await readdir(campaign.folder)).sort()).toEqual(['kcor', 'ucomp']);
    await expectFilesIntact(emulator(), service, campaign);
    expect(service.overview(service.store.require(campaign.name)).counts).toMatchObject({ files: files.length, onDisk: files.length, missing: 0 });

    emulator().resetStats();
    const next = await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(next.moved).toEqual([]);
    expect(next.total).toMatchObject({ onDisk: files.length, missing: 0 });
    expect(await service.verify(campaign.name)).toMatchObject({ onDisk: files.length, missing: 0, changed: 0, unexpected: 0, problems: [] });
  });

  it('leaves a missing and a changed copy to the next sync, which fetches only those to their new places', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    const [lost, damaged] = files;
    await rm(lost!.targetPath);
    await writeFile(damaged!.targetPath, 'damaged');
    const result = await service.change(campaign.name, { layout: '{instrument}' });
    expect(result.moves).toEqual({ moved: files.length - 2, leftForSync: 2 });
    // The damaged copy stays where it was (the user may want it); it is no longer the campaign's.
    expect(await exists(damaged!.targetPath)).toBe(true);

    emulator().resetStats();
    const next = await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsByFile).toEqual({ [lost!.filename]: 1, [damaged!.filename]: 1 });
    expect(next.total).toMatchObject({ onDisk: files.length, missing: 0, failed: 0 });
    await expectFilesIntact(emulator(), service, campaign);
  });

  it('refuses a layout under which two files would share a place, and changes nothing', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const folder = path.join(await temporaryFolder(), 'twice');
    const campaign = await service.create({ name: 'twice', folder, layout: '{yyyy}', queries: [KCOR_DAY] });
    // One name at two dates (as a shared file list can give it): two places under {yyyy}, one without it.
    const [file] = (await syncAndWait(service, h, campaign.name)) && service.store.files(campaign.id);
    const again = {
      ...file!,
      dateObs: '2024-01-01T00:00:00',
      relativePath: `2024/${file!.filename}`,
      targetPath: targetPathOf(folder, `2024/${file!.filename}`),
    };
    service.store.recordFiles(campaign.id, [again]);
    const before = service.store.files(campaign.id);

    await expect(service.change(campaign.name, { layout: '' })).rejects.toThrow(
      `With every file in the folder itself, two files would both be at "${file!.filename}" (from 2024/${file!.filename} and 2025/${file!.filename}): choose a layout whose placeholders tell them apart.`,
    );
    expect(service.store.require(campaign.name).layout).toBe('{yyyy}');
    expect(service.store.files(campaign.id)).toEqual(before);
    expect(await exists(file!.targetPath)).toBe(true);
  });

  it('picks up where a change killed in the middle stopped: a file renamed before its record moved keeps its job', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    // As a kill -9 leaves it: the new layout recorded, one file renamed on disk but its record (and job) still at
    // the old place, the other files not moved yet.
    const [renamed] = files;
    service.store.update(campaign.id, { layout: '{instrument}' });
    const renamedTo = path.join(campaign.folder, renamed!.instrument, renamed!.filename);
    await mkdir(path.dirname(renamedTo), { recursive: true });
    await rename(renamed!.targetPath, renamedTo);

    const result = await service.change(campaign.name, { layout: '{instrument}' });
    expect(result.moves).toEqual({ moved: files.length, leftForSync: 0 });
    expect(service.store.files(campaign.id).find((file) => file.filename === renamed!.filename)).toMatchObject({
      relativePath: `${renamed!.instrument}/${renamed!.filename}`,
      jobId: renamed!.jobId,
      state: 'done',
    });
    emulator().resetStats();
    await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await service.verify(campaign.name)).toMatchObject({ onDisk: files.length, missing: 0, unexpected: 0 });
  });

  /** As a kill -9 in the middle of a change to `layout` leaves it: one file renamed before its record (and job) moved. */
  async function killedInTheMiddle(layout: string) {
    const synced = await syncedCampaign('{obs_plan}');
    const { service, campaign, files } = synced;
    const [renamed] = files;
    service.store.update(campaign.id, { layout });
    service.store.markLayoutMoving(campaign.id, true);
    const renamedTo = path.join(campaign.folder, renamed!.instrument, renamed!.filename);
    await mkdir(path.dirname(renamedTo), { recursive: true });
    await rename(renamed!.targetPath, renamedTo);
    return { ...synced, renamed: renamed! };
  }

  it.each(['verify', 'sync'] as const)('killed in the middle is finished by the next %s, which says so: no file missing, none fetched', async (next) => {
    const { h, service, campaign, files, renamed } = await killedInTheMiddle('{instrument}');
    const finished: unknown[] = [];
    const onLayoutFinished = (...told: unknown[]) => finished.push(told);
    emulator().resetStats();
    if (next === 'verify') {
      expect(await service.verify(campaign.name, { onLayoutFinished })).toMatchObject({ onDisk: files.length, missing: 0, unexpected: 0, problems: [] });
    } else {
      await service.sync(campaign.name, h.engine, { onLayoutFinished });
      await h.engine.whenSettled();
    }
    expect(finished).toEqual([[{ moved: files.length, leftForSync: 0 }, '{instrument}']]);
    expect(service.store.isLayoutMoving(campaign.id)).toBe(false);
    for (const file of service.store.files(campaign.id)) expect(file.relativePath).toBe(`${file.instrument}/${file.filename}`);
    expect(service.store.files(campaign.id).find((file) => file.filename === renamed.filename)).toMatchObject({ jobId: renamed.jobId, state: 'done' });
    await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await service.verify(campaign.name)).toMatchObject({ onDisk: files.length, missing: 0, unexpected: 0 });
  });

  it('killed in the middle, then asked for another layout: finishes the first change, then moves every file from there', async () => {
    const { h, service, campaign, files } = await killedInTheMiddle('{instrument}');
    const result = await service.change(campaign.name, { layout: '{instrument}/{yyyy}' });
    expect(result.finished).toEqual({ moved: files.length, leftForSync: 0, layout: '{instrument}' });
    expect(result.moves).toEqual({ moved: files.length, leftForSync: 0 });
    emulator().resetStats();
    await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await service.verify(campaign.name)).toMatchObject({ onDisk: files.length, missing: 0, unexpected: 0 });
  });

  it('a change stopped by its signal says so, and the same change again moves the files it had not', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    const stop = new AbortController();
    stop.abort();
    await expect(service.change(campaign.name, { layout: '{instrument}' }, { signal: stop.signal })).rejects.toThrow('The layout change was cancelled.');
    expect(service.store.require(campaign.name).layout).toBe('{instrument}');
    expect(await service.change(campaign.name, { layout: '{instrument}' })).toMatchObject({ moves: { moved: files.length, leftForSync: 0 } });
    emulator().resetStats();
    await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    await expectFilesIntact(emulator(), service, campaign);
  });

  it('a sync after a change stopped before any file moved moves them instead of fetching them again', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    service.store.update(campaign.id, { layout: '{instrument}' });
    emulator().resetStats();
    const next = await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(next.moved.filter((move) => move.movedOnDisk)).toHaveLength(files.length);
    await expectFilesIntact(emulator(), service, campaign);
  });

  it('cancels a paused job at an old place and removes its temporary file at once', async () => {
    const { h, service, campaign, files } = await syncedCampaign('{obs_plan}');
    const [paused] = files;
    // As a transfer interrupted mid-file leaves it: paused, nothing at the target, a temporary file recorded.
    await rm(paused!.targetPath);
    h.ledger.setState(paused!.jobId!, 'paused');
    const temporary = `.${paused!.filename}.0123abcd.part`;
    await writeFile(path.join(path.dirname(paused!.targetPath), temporary), 'partial');
    h.ledger.recordTemporaryFile(paused!.jobId!, temporary);

    const result = await service.change(campaign.name, { layout: '{instrument}' });
    expect(result.moves).toMatchObject({ leftForSync: 1 });
    expect(h.ledger.get(paused!.jobId!)!.state).toBe('cancelled');
    expect(await exists(path.join(path.dirname(paused!.targetPath), temporary))).toBe(false);
  });
});
