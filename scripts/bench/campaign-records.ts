// A campaign's file records and their finished jobs written straight into a state folder, as a sync would have
// left them: for the verify benchmark and the tests that need a campaign already on disk without a server.
import path from 'node:path';
import type { CampaignFileRecord, CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import type { DownloadLedger } from '../../src-main/core/downloads/download-ledger';

/** A KCor pB file of the campaign at `targetPath`, listed at `filesize` bytes. */
export function kcorFileRecord(targetPath: string, filesize: number, dateObs: string | null = '2025-03-24T21:03:04'): CampaignFileRecord {
  const filename = path.basename(targetPath);
  return {
    relativePath: filename,
    targetPath,
    filename,
    url: `https://api.example.org/download/kcor/${filename}`,
    instrument: 'kcor',
    product: 'pb',
    dateObs,
    waveRegion: null,
    obsPlan: null,
    filesize,
    expectedSha256: null,
  };
}

/** Records the files in the campaign and queues a job for each in its folder (state active); returns the job ids. */
export function recordCampaignFiles(store: CampaignStore, ledger: DownloadLedger, campaignId: number, records: readonly CampaignFileRecord[]): number[] {
  store.recordFiles(campaignId, records);
  return ledger.insertMany(
    records.map((file) => ({ ...file, folder: path.dirname(file.targetPath), expectedSize: file.filesize, batchId: null, state: 'active' as const })),
  );
}
