// A ledger from before the counts were kept (migration 16) opens with its campaigns kept and counted: the triggers
// are made and every campaign counted once, at that opening, and not again at the next.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { kcorFileRecord } from '../../../scripts/bench/campaign-records';
import { COUNTING_TRIGGERS, keepCountingCurrent } from '../../../src-main/core/campaigns/campaign-counting';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';

describe('the counts of a campaign of an older ledger', () => {
  it('come to a ledger of version 8 counted at its first opening, its campaigns and their last sync kept', async () => {
    const file = path.join(await temporaryFolder(), 'downloads.sqlite');
    const latest = StateDatabase.open(file, STATE_DOMAINS);
    const latestVersion = latest.schemaVersion;
    latest.close();
    // Back to version 8 (the columns and tables of migrations 9 to 16 gone, and the triggers the opening made), with a
    // campaign of one file written then.
    const old = new Database(file);
    for (const name of COUNTING_TRIGGERS.keys()) old.exec(`DROP TRIGGER ${name}`);
    old.exec(`ALTER TABLE campaigns DROP COLUMN layout_moving; ALTER TABLE campaigns DROP COLUMN shared_list_kept;
      DROP TABLE campaign_counts; DROP TABLE campaign_counting_held; ALTER TABLE campaigns DROP COLUMN counted_since; ALTER TABLE jobs DROP COLUMN written_mtime_ms;
      ALTER TABLE campaign_windows DROP COLUMN listed_from; ALTER TABLE campaigns DROP COLUMN listed_whole_at;
      ALTER TABLE jobs DROP COLUMN reused_from; ALTER TABLE campaigns DROP COLUMN servers_listed_from; PRAGMA user_version = 8;`);
    const at = '2025-01-01T00:00:00.000Z';
    const total = { listed: 1, new: 1, onDisk: 0, differs: 0, queued: 1, failed: 0, changed: 0, missing: 0, downloaded: 0, alreadyThere: 0, notSynced: 0 };
    const report = { campaign: 'Été', at, queries: [], total, duplicates: 0, refused: [], moved: [], differing: [], reused: { count: 0, from: [] } };
    old
      .prepare(`INSERT INTO campaigns (name, name_key, folder, layout, created_at, last_sync_at, last_sync) VALUES ('Été', 'été', '/data/ete', '', 'c', ?, ?)`)
      .run(at, JSON.stringify(report));
    old
      .prepare(
        `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, filesize, first_seen_at)
       VALUES (1, 'a.fts', '/data/ete/a.fts', 'a.fts', 'u', 'kcor', 'pb', 1, 'f')`,
      )
      .run();
    old.close();

    const state = StateDatabase.open(file, STATE_DOMAINS);
    const ledger = new DownloadLedger(state);
    try {
      expect(state.schemaVersion).toBe(latestVersion);
      const service = new CampaignService({ ledger, state, client: {} as MlsoClient });
      const [overview] = service.overviews();
      // Counted since the last sync recorded then; its report's total is the counts now.
      expect(overview).toMatchObject({ name: 'Été', lastSyncAt: at, counts: { files: 1, missing: 1, queued: 0 } });
      expect(overview!.lastSync?.total).toMatchObject({ queued: 0, missing: 1 });
      // Kept from then on as files change.
      service.store.recordFiles(service.store.require('Été').id, [kcorFileRecord('/data/ete/b.fts', 1, null)]);
      expect(service.overviews()[0]!.counts).toMatchObject({ files: 2, missing: 2 });
    } finally {
      ledger.close();
    }
    // Opened again, nothing is counted again: the triggers are as the rule defines them.
    const again = new Database(file);
    try {
      expect(keepCountingCurrent(again)).toBe(false);
      // One made by another rule is made again, and every campaign counted once more.
      again.exec('DROP TRIGGER campaign_count_file_insert; CREATE TRIGGER campaign_count_file_insert AFTER INSERT ON campaign_files BEGIN SELECT 1; END');
      again.exec('UPDATE campaign_counts SET files = 7');
      expect(keepCountingCurrent(again)).toBe(true);
      expect(again.prepare('SELECT standing, files FROM campaign_counts WHERE files != 0').all()).toEqual([{ standing: 'missing', files: 2 }]);
      expect(keepCountingCurrent(again)).toBe(false);
    } finally {
      again.close();
    }
  });
});
