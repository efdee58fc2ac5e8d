// One truth per campaign (issue 21, item 4): the card's counts (the overview that `campaign show/list --json`
// print too), the Verify report and the sync's summary are one set of numbers, counted by one function over the
// same facts, however the files stand: never synced, freshly synced, a file deleted and another changed behind the
// app's back and found by verify, then synced again.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignCounts, SyncCounts, VerifyReport } from '../../../src-shared/campaigns/campaign-types';
import type { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { KCOR_DAY, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

const cardOf = (service: CampaignService, name: string): CampaignCounts => service.overview(service.store.require(name)).counts;

/** The numbers a sync summary and the card both show. */
const shared = (counts: CampaignCounts | SyncCounts) => ({
  onDisk: counts.onDisk,
  downloaded: counts.downloaded,
  reused: counts.reused,
  alreadyThere: counts.alreadyThere,
  changed: counts.changed,
  queued: counts.queued,
  failed: counts.failed,
  missing: counts.missing,
  notSynced: counts.notSynced,
});

/** The numbers a verify report and the card both show. */
const verified = (counts: CampaignCounts | VerifyReport) => ({
  onDisk: counts.onDisk,
  differs: counts.differs,
  changed: counts.changed,
  queued: counts.queued,
  failed: counts.failed,
  missing: counts.missing,
});

describe('one truth per campaign', () => {
  it('the card, the verify report and the sync summary agree, before a sync, after it, after verify and after the next sync', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const root = await temporaryFolder();
    // A campaign shared with its files and imported: its files are known, none is fetched yet.
    const source = await service.create({ name: 'source', folder: path.join(root, 'source'), layout: '', queries: [KCOR_DAY] });
    await syncAndWait(service, h, source.name);
    const shared_ = await service.exportAs(source.name, 'campaign', { includeFiles: true });
    const { campaign } = service.importFile(shared_.text, { name: 'eclipse', folder: path.join(root, 'eclipse'), defaultParent: root });
    const total = service.store.files(campaign.id).length;
    expect(total).toBeGreaterThan(2);

    // Never synced: not yet synced, not missing (the card shows it neutral).
    expect(cardOf(service, campaign.name)).toMatchObject({ files: total, onDisk: 0, missing: 0, notSynced: total, failed: 0 });

    // The first sync takes them all from the source's folder (reused, not downloaded); its summary says so, and the card agrees.
    const first = await syncAndWait(service, h, campaign.name);
    expect(first.total).toMatchObject({ downloaded: 0, reused: total, alreadyThere: 0, failed: 0, queued: 0, missing: 0, notSynced: 0 });
    expect(first.reused).toEqual({ count: total, from: [path.join(root, 'source')] });
    expect(shared(cardOf(service, campaign.name))).toEqual(shared(first.total));

    // A file deleted and another changed behind the app's back: verify finds them, and the card says the same.
    const files = service.store.files(campaign.id);
    const [changed, deleted] = [files[0]!, files[files.length - 1]!];
    await writeFile(changed.targetPath, Buffer.alloc(changed.bytesWritten, 0x20));
    await rm(deleted.targetPath);
    const report = await service.verify(campaign.name);
    expect(report).toMatchObject({ onDisk: total - 2, missing: 1, changed: 1, failed: 0, queued: 0 });
    expect(verified(cardOf(service, campaign.name))).toEqual(verified(report));

    // The next sync takes those two from the source's folder again and finds the rest already there; card and summary agree again.
    const second = await syncAndWait(service, h, campaign.name);
    expect(second.total).toMatchObject({ downloaded: 0, reused: 2, alreadyThere: total - 2, failed: 0, queued: 0, missing: 0, changed: 0 });
    expect(shared(cardOf(service, campaign.name))).toEqual(shared(second.total));
    // The summary each query shows adds up to the same numbers.
    expect(second.queries[0]).toMatchObject({ downloaded: 0, reused: 2, alreadyThere: total - 2 });
  });

  it('the summary recorded for the card (lastSync) is the one the finished sync reports, not the one from when it queued', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const campaign = await service.create({ name: 'fresh', folder: path.join(await temporaryFolder(), 'fresh'), layout: '', queries: [KCOR_DAY] });
    const run = await service.sync(campaign.name, h.engine);
    await h.engine.whenSettled();
    const overview = service.overview(service.store.require(campaign.name));
    expect(overview.lastSync?.total).toMatchObject({ downloaded: overview.counts.files, queued: 0 });
    expect(shared(overview.lastSync!.total)).toEqual(shared(run.refresh().total));
    // Each query's row too, made again once the files were no longer queued, and kept.
    expect(overview.lastSync?.queries[0]).toMatchObject({ downloaded: overview.counts.files, queued: 0 });
    expect(service.store.require(campaign.name).lastSync?.queries[0]).toMatchObject({ downloaded: overview.counts.files, queued: 0 });
  });
});
