// A campaign's counts as last counted, kept in the state database (migration 9) for the app's list to show the moment
// it opens. A ledger from before migration 9 opens with its campaigns kept, counted for the first time when asked.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';

const QUERY = { instrument: 'kcor', product: 'pb', filters: {} };

describe('the counts a campaign had when last counted', () => {
  it('come to a ledger of version 8 (before migration 9) empty, its campaigns kept, and are remembered when counted', async () => {
    const file = path.join(await temporaryFolder(), 'downloads.sqlite');
    const latest = StateDatabase.open(file, STATE_DOMAINS);
    const latestVersion = latest.schemaVersion;
    latest.close();
    // Back to version 8 (the columns of migrations 9 to 15 gone), with a campaign of one file written then.
    const old = new Database(file);
    old.exec(`ALTER TABLE campaigns DROP COLUMN layout_moving; ALTER TABLE campaigns DROP COLUMN shared_list_kept;
      ALTER TABLE campaigns DROP COLUMN remembered_counts; ALTER TABLE jobs DROP COLUMN written_mtime_ms;
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
      expect(service.rememberedOverviews()).toEqual([
        // Nor the last sync's figures as recorded then (a file queued): they wait for the counts.
        expect.objectContaining({ name: 'Été', countsAre: 'uncounted', counts: expect.objectContaining({ files: 0, missing: 0 }), lastSync: null }),
      ]);
      const [counted] = await service.countedOverviews();
      expect(counted!.counts).toMatchObject({ files: 1, missing: 1 });
      expect(counted).not.toHaveProperty('countsAre');
      expect(service.rememberedOverviews()).toEqual([expect.objectContaining({ countsAre: 'remembered', counts: counted!.counts })]);
      expect(service.rememberedOverviews()[0]!.lastSync?.total).toMatchObject({ queued: 0, missing: 1 });
      // `campaign list/show --json` count afresh, and remember nothing.
      service.store.create({ name: 'new', folder: '/data/new', layout: '', queries: [QUERY], autoSyncHours: null });
      expect(service.overviews().map((overview) => [overview.name, overview.countsAre])).toEqual([
        ['new', undefined],
        ['Été', undefined],
      ]);
      expect(service.rememberedOverviews().map((overview) => overview.countsAre)).toEqual(['uncounted', 'remembered']);
    } finally {
      ledger.close();
    }
  });
});
