// A campaign service over an engine harness (fresh ledger and folders) against the test's emulator.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import type { StoredCampaign } from '../../../src-main/core/campaigns/campaign-store';
import type { RunningEmulator } from '../../../src-main/emulator';
import type { Harness } from '../downloads/engine-harness';

export const KCOR_DAY: CampaignQuery = {
  instrument: 'kcor',
  product: 'pb',
  filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '2hours' },
};
export const UCOMP_DAY: CampaignQuery = {
  instrument: 'ucomp',
  product: 'l2',
  filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '2hours' },
};

export function serviceOver(harness: Harness): CampaignService {
  return new CampaignService({ ledger: harness.ledger, state: harness.state, client: harness.client });
}

/** Syncs and waits for the queue to finish; the report as it stands then. */
export async function syncAndWait(service: CampaignService, harness: Harness, name: string) {
  const run = await service.sync(name, harness.engine);
  await harness.engine.whenSettled();
  return run.refresh();
}

/** Every file of the campaign is on disk with the emulator's exact bytes. */
export async function expectFilesIntact(emulator: RunningEmulator, service: CampaignService, campaign: StoredCampaign): Promise<void> {
  for (const file of service.store.files(campaign.id)) {
    const written = await readFile(path.join(campaign.folder, ...file.relativePath.split('/')));
    expect(written.equals(await emulator.fileBytes(file.instrument, file.filename)), file.relativePath).toBe(true);
  }
}
