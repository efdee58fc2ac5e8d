// Verify names a file that sync refuses (its path would be too long) as refused, with the reason, not as missing:
// syncing again would not fetch it, the user has to choose a shorter folder or layout. Its counts are the card's, in
// which the file is one of the missing: `refused` says how many of those sync refuses.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { KCOR_DAY, serviceOver, syncAndWait } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

type Listing = { files: Record<string, unknown>[] };

describe('verify of a campaign with a file sync refuses', () => {
  it('names it refused with the reason, and counts it among the missing as the card does', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const folder = path.join(await temporaryFolder(), 'deep');
    // 34 folders of up to 120 bytes each: past 4,096 bytes for the file whose obs-plan is long, short for the others.
    const layout = Array.from({ length: 34 }, () => '{obs_plan}').join('/');
    const campaign = await service.create({ name: 'deep', folder, layout, queries: [KCOR_DAY] });
    let long: string | undefined;
    emulator().transformListing = (listing) => {
      const files = (listing as Listing).files;
      long ??= files[1]!['filename'] as string;
      return { ...listing, files: files.map((file) => (file['filename'] === long ? { ...file, 'obs-plan': 'p'.repeat(150) } : file)) };
    };
    const synced = await syncAndWait(service, h, campaign.name);
    expect(synced.refused).toEqual([{ filename: long, reason: expect.stringMatching(/^its path would be/) }]);

    const report = await service.verify(campaign.name);
    const files = service.store.files(campaign.id);
    const refused = files.find((file) => file.filename === long)!;
    expect(report).toMatchObject({ onDisk: files.length - 1, missing: 1, refused: 1, changed: 0, failed: 0 });
    expect(service.overview(service.store.require(campaign.name)).counts).toMatchObject({ onDisk: files.length - 1, missing: 1 });
    expect(report.problems).toEqual([{ path: refused.relativePath, problem: 'refused', reason: synced.refused[0]!.reason }]);
  });
});
