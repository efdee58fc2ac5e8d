import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { KCOR_DAY, UCOMP_DAY, expectFilesIntact, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

async function newCampaign(layout = '', queries = [KCOR_DAY, UCOMP_DAY]) {
  const h = await harness();
  const service = serviceOver(h);
  const folder = path.join(await temporaryFolder(), 'eclipse');
  const campaign = await service.create({ name: '2024 eclipse', folder, layout, queries });
  return { h, service, campaign };
}

describe('campaign sync', () => {
  it('fetches every file of every query once, and a second sync fetches nothing', async () => {
    const { h, service, campaign } = await newCampaign();
    const first = await syncAndWait(service, h, campaign.name);
    const files = service.store.files(campaign.id);
    expect(files.length).toBeGreaterThan(4);
    expect(first.total).toMatchObject({ listed: files.length, new: files.length, onDisk: files.length, queued: 0, failed: 0, missing: 0 });
    expect(first.queries.map((query) => query.listed)).toEqual([
      files.filter((file) => file.instrument === 'kcor').length,
      files.filter((file) => file.instrument === 'ucomp').length,
    ]);
    expect(emulator().stats().downloadsCompleted).toBe(files.length);
    await expectFilesIntact(emulator(), service, campaign);

    const second = await syncAndWait(service, h, campaign.name);
    expect(second.total).toMatchObject({ listed: files.length, new: 0, onDisk: files.length, queued: 0 });
    // The emulator's counter: not one file was fetched twice.
    expect(emulator().stats().downloadsStarted).toBe(files.length);
    expect(Object.values(emulator().stats().downloadsByFile).every((count) => count === 1)).toBe(true);
    expect(service.overview(service.store.require(campaign.name))).toMatchObject({ counts: { files: files.length, onDisk: files.length, missing: 0 } });
  });

  it('keeps a file listed by two queries once', async () => {
    const { h, service, campaign } = await newCampaign('', [KCOR_DAY, { ...KCOR_DAY, filters: { ...KCOR_DAY.filters, every: '4hours' } }]);
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.duplicates).toBe(report.queries[1]!.listed);
    expect(report.total.listed).toBe(report.queries[0]!.listed);
    expect(emulator().stats().downloadsStarted).toBe(report.queries[0]!.listed);
  });

  it('places files by the layout, each in its own folders', async () => {
    const { h, service, campaign } = await newCampaign('{instrument}/{yyyy}/{mm}/{dd}/{wave_region}');
    await syncAndWait(service, h, campaign.name);
    const files = service.store.files(campaign.id);
    for (const file of files) {
      const region = file.instrument === 'ucomp' ? file.waveRegion : 'unknown';
      expect(file.relativePath).toBe(`${file.instrument}/2025/03/24/${region}/${file.filename}`);
    }
    expect((await readdir(campaign.folder)).sort()).toEqual(['kcor', 'ucomp']);
    await expectFilesIntact(emulator(), service, campaign);
  });

  it('verify finds a corrupted and a deleted file, and the next sync fetches exactly those two', async () => {
    const { h, service, campaign } = await newCampaign('{instrument}');
    await syncAndWait(service, h, campaign.name);
    const files = service.store.files(campaign.id);
    const [corrupted, deleted] = [files[0]!, files[files.length - 1]!];
    const clean = await service.verify(campaign.name);
    expect(clean).toMatchObject({ onDisk: files.length, missing: 0, changed: 0, unexpected: 0, failed: 0, problems: [] });

    await writeFile(corrupted.targetPath, Buffer.alloc(corrupted.bytesWritten, 0x20)); // same size, other bytes
    await rm(deleted.targetPath);
    await writeFile(path.join(campaign.folder, 'notes.txt'), 'mine');
    const found = await service.verify(campaign.name);
    expect(found).toMatchObject({ onDisk: files.length - 2, missing: 1, changed: 1, unexpected: 1, failed: 0 });
    expect(found.problems).toEqual(
      expect.arrayContaining([
        { path: corrupted.relativePath, problem: 'changed' },
        { path: deleted.relativePath, problem: 'missing' },
        { path: 'notes.txt', problem: 'unexpected' },
      ]),
    );

    emulator().resetStats();
    const resynced = await syncAndWait(service, h, campaign.name);
    expect(Object.keys(emulator().stats().downloadsByFile).sort()).toEqual([corrupted.filename, deleted.filename].sort());
    expect(resynced.total).toMatchObject({ onDisk: files.length, missing: 0, failed: 0 });
    await expectFilesIntact(emulator(), service, campaign);
    expect(await service.verify(campaign.name)).toMatchObject({ onDisk: files.length, missing: 0, changed: 0, unexpected: 1 });
  });

  it('an open-ended campaign picks up a day the archive adds later', async () => {
    const { h, service, campaign } = await newCampaign('{yyyy}-{mm}-{dd}', [
      { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', every: '2hours' } },
    ]);
    const first = await syncAndWait(service, h, campaign.name);
    expect(await readdir(campaign.folder)).toEqual(['2025-03-24']);
    emulator().setOptions({ lastDay: '2025-03-25', days: 6 });
    emulator().resetStats();
    const second = await syncAndWait(service, h, campaign.name);
    expect(second.total.new).toBeGreaterThan(0);
    expect(second.total.onDisk).toBe(first.total.onDisk + second.total.new);
    expect(emulator().stats().downloadsStarted).toBe(second.total.new);
    expect((await readdir(campaign.folder)).sort()).toEqual(['2025-03-24', '2025-03-25']);
  });

  it('reports with its reason a file of the set the queue now refuses (another server), not only as missing', async () => {
    // A windowed query, its month settled: the second sync does not list it again, so the file below is queued from
    // the set (a sync listing the campaign whole would find it no longer listed, and leave it).
    const settled = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' } };
    const { h, service, campaign } = await newCampaign('', [settled]);
    await syncAndWait(service, h, campaign.name);
    const [some] = service.store.files(campaign.id);
    // A file recorded while other servers were allowed (or from a shared list): its address is on another host.
    const foreign = { ...some!, relativePath: 'elsewhere.fts', targetPath: path.join(campaign.folder, 'elsewhere.fts'), filename: 'elsewhere.fts' };
    service.store.recordFiles(campaign.id, [{ ...foreign, url: 'https://mirror.example.org/elsewhere.fts', expectedSha256: null }]);
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.refused).toEqual([{ filename: 'elsewhere.fts', reason: expect.stringMatching(/mirror\.example\.org.*allow/i) }]);
    expect(report.total.missing).toBe(1);
  });
});
