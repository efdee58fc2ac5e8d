// A file the listing places in another layout folder than before: one name is one file, kept in one place.
import { rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { UCOMP_DAY, expectFilesIntact, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

async function newCampaign(layout: string, queries: CampaignQuery[] = [UCOMP_DAY]) {
  const h = await harness();
  const service = serviceOver(h);
  const folder = path.join(await temporaryFolder(), 'plans');
  const campaign = await service.create({ name: 'plans', folder, layout, queries });
  return { h, service, campaign };
}

type Listing = { files: Record<string, unknown>[] };

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

function replan(filename: string, obsPlan: string): void {
  emulator().transformListing = (listing) => ({
    ...listing,
    files: (listing as Listing).files.map((file) => (file['filename'] === filename ? { ...file, 'obs-plan': obsPlan } : file)),
  });
}

describe('a file the listing places elsewhere', () => {
  it('moves with its finished job: the ledger knows it at its new place, and nothing is fetched', async () => {
    const { h, service, campaign } = await newCampaign('{obs_plan}');
    await syncAndWait(service, h, campaign.name);
    const victim = service.store.files(campaign.id)[0]!;
    replan(victim.filename, 'waves-replanned.cbk');
    emulator().resetStats();
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.moved).toEqual([{ filename: victim.filename, from: victim.relativePath, to: `waves-replanned.cbk/${victim.filename}`, movedOnDisk: true }]);
    expect(emulator().stats().downloadsStarted).toBe(0);
    const moved = service.store.files(campaign.id).find((file) => file.filename === victim.filename)!;
    expect(moved).toMatchObject({
      relativePath: `waves-replanned.cbk/${victim.filename}`,
      obsPlan: 'waves-replanned.cbk',
      jobId: victim.jobId,
      state: 'done',
      firstSeenAt: victim.firstSeenAt,
    });
    expect(h.ledger.get(victim.jobId!)!.targetPath).toBe(path.join(campaign.folder, 'waves-replanned.cbk', victim.filename));
    expect(service.store.files(campaign.id).filter((file) => file.filename === victim.filename)).toHaveLength(1);
    await expectFilesIntact(emulator(), service, campaign);
  });

  it('whose job at the old place was still queued (an earlier sync interrupted) is fetched only to its new place', async () => {
    const { h, service, campaign } = await newCampaign('{obs_plan}');
    await syncAndWait(service, h, campaign.name);
    const victim = service.store.files(campaign.id)[1]!;
    // As an interrupted sync leaves it: queued, not on disk.
    await rm(victim.targetPath);
    h.ledger.setState(victim.jobId!, 'queued');
    replan(victim.filename, 'waves-replanned.cbk');
    emulator().resetStats();
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.moved).toEqual([{ filename: victim.filename, from: victim.relativePath, to: `waves-replanned.cbk/${victim.filename}`, movedOnDisk: false }]);
    expect(report.total).toMatchObject({ missing: 0, queued: 0, failed: 0 });
    expect(emulator().stats().downloadsByFile).toEqual({ [victim.filename]: 1 });
    expect(h.ledger.get(victim.jobId!)!.state).toBe('cancelled');
    expect(await service.verify(campaign.name)).toMatchObject({ missing: 0, changed: 0, unexpected: 0, problems: [] });
  });

  it('whose job at the old place was paused mid-transfer has its temporary file removed when the job is cancelled', async () => {
    const { h, service, campaign } = await newCampaign('{obs_plan}');
    await syncAndWait(service, h, campaign.name);
    const victim = service.store.files(campaign.id)[1]!;
    // As a transfer stopped by a kill leaves it: paused, nothing at the target, its temporary file recorded.
    await rm(victim.targetPath);
    h.ledger.setState(victim.jobId!, 'paused');
    const temporary = path.join(path.dirname(victim.targetPath), `.${victim.filename}.0123abcd.part`);
    await writeFile(temporary, 'partial');
    h.ledger.recordTemporaryFile(victim.jobId!, path.basename(temporary));
    replan(victim.filename, 'waves-replanned.cbk');
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.moved).toMatchObject([{ filename: victim.filename, movedOnDisk: false }]);
    expect(h.ledger.get(victim.jobId!)!.state).toBe('cancelled');
    expect(await exists(temporary)).toBe(false);
  });

  it('whose job at the old place was paused with the beginning of its body kept has that resume file removed too', async () => {
    const { h, service, campaign } = await newCampaign('{obs_plan}');
    await syncAndWait(service, h, campaign.name);
    const victim = service.store.files(campaign.id)[1]!;
    // As Pause leaves it: paused, nothing at the target, the body received so far kept beside it for resuming.
    await rm(victim.targetPath);
    h.ledger.setState(victim.jobId!, 'paused');
    const kept = path.join(path.dirname(victim.targetPath), `.${victim.filename}.0123abcd.resume`);
    await writeFile(kept, 'the first bytes');
    h.ledger.setResumePoint(victim.jobId!, { name: path.basename(kept), validator: '"v1"' });
    replan(victim.filename, 'waves-replanned.cbk');
    const report = await syncAndWait(service, h, campaign.name);
    expect(report.moved).toMatchObject([{ filename: victim.filename, movedOnDisk: false }]);
    expect(h.ledger.get(victim.jobId!)!.state).toBe('cancelled');
    expect(await exists(kept)).toBe(false);
  });

  it('that a listing gives two places in one sync is kept at the first, listed once', async () => {
    const { h, service, campaign } = await newCampaign('{obs_plan}');
    emulator().transformListing = (listing) => {
      const files = (listing as Listing).files;
      return { ...listing, files: [...files, { ...files[0]!, 'obs-plan': 'elsewhere.cbk' }] };
    };
    const report = await syncAndWait(service, h, campaign.name);
    const files = service.store.files(campaign.id);
    expect(report.total).toMatchObject({ listed: files.length, onDisk: files.length, missing: 0 });
    expect(report.refused).toEqual([]);
    expect(files.some((file) => file.relativePath.startsWith('elsewhere.cbk/'))).toBe(false);
  });
});
