// Ledgers on users' disks were written when one file held every migration (user_version 1, 2 or 3): now that the
// downloads and the campaigns each register their own, such a ledger must still open through the state folder with
// every row kept and the later migrations applied, and a ledger from a later release must still be refused.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_DOMAINS, openStateLedger, type OpenedLedger } from '../../../src-main/core/app/open-engine';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { LedgerVersionError, migrationsInOrder } from '../../../src-main/core/state/state-migrations';
import { temporaryFolder } from '../../helpers/fixtures';
import { oldLedger, releasedMigrations } from './old-ledgers';

/** The schema version this release leaves a ledger at (4: the jobs' resume columns). */
const LATEST = migrationsInOrder(STATE_DOMAINS).length;

const opened: OpenedLedger[] = [];
afterEach(() => {
  for (const state of opened.splice(0)) state.close();
});

/** The schema as SQLite keeps it: every table and index with the text that made it. */
function schemaOf(db: Database.Database): unknown[] {
  return db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
}

/** A state folder whose ledger an earlier release wrote at `version`, with a job, a setting and (from 2) a campaign. */
async function stateFolderAt(version: 1 | 2 | 3): Promise<string> {
  const folder = await temporaryFolder();
  const db = oldLedger(path.join(folder, LEDGER_FILE), version);
  db.prepare(
    `INSERT INTO jobs (url, instrument, product, date_obs, filename, folder, target_path, state, expected_size, sha256, batch_id, created_at, updated_at)
     VALUES ('https://x/a.fts.gz', 'kcor', 'pb', '2025-03-24T18:00:00', 'a.fts', '/data/eclipse', '/data/eclipse/a.fts', 'done', 300, ?, 'b1', 'c', 'u')`,
  ).run('a'.repeat(64));
  db.prepare("INSERT INTO settings (key, value) VALUES ('queue-paused', 'true')").run();
  if (version >= 2) {
    const keyed = version === 3;
    db.prepare(
      `INSERT INTO campaigns (name, folder, layout, auto_sync_hours, created_at${keyed ? ', name_key' : ''}) VALUES ('Été', '/data/eclipse', '{yyyy}', 24, 'c'${keyed ? ", 'été'" : ''})`,
    ).run();
    db.prepare(`INSERT INTO campaign_queries (campaign_id, position, instrument, product, filters) VALUES (1, 0, 'kcor', 'pb', '{"every":"2hours"}')`).run();
    db.prepare(
      `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, date_obs, filesize, first_seen_at)
       VALUES (1, 'a.fts', '/data/eclipse/a.fts', 'a.fts', 'https://x/a.fts.gz', 'kcor', 'pb', '2025-03-24T18:00:00', 300, 'f')`,
    ).run();
  }
  db.close();
  return folder;
}

describe('a ledger written by an earlier release', () => {
  it.each([1, 2, 3] as const)('at user_version %i opens with every row kept and the later migrations applied', async (version) => {
    const folder = await stateFolderAt(version);
    const state = await openStateLedger(folder);
    opened.push(state);

    expect(state.state.schemaVersion).toBe(LATEST);
    expect(state.state.startedEmpty).toBe(false);
    // Nothing was moved aside or restored: the file was sound, only older.
    expect(state).not.toHaveProperty('notice');
    expect((await readdir(folder)).filter((name) => name.includes('damaged'))).toEqual([]);
    expect(state.ledger.list({ includeCleared: true })).toEqual([
      expect.objectContaining({ targetPath: '/data/eclipse/a.fts', state: 'done', sha256: 'a'.repeat(64), expectedSize: 300, batchId: 'b1' }),
    ]);
    expect(state.ledger.getSetting('queue-paused')).toBe('true');

    const store = new CampaignStore(state.state);
    if (version === 1) {
      expect(store.list()).toEqual([]);
      return;
    }
    expect(store.list()).toEqual([
      expect.objectContaining({
        name: 'Été',
        folder: '/data/eclipse',
        layout: '{yyyy}',
        autoSyncHours: 24,
        queries: [{ instrument: 'kcor', product: 'pb', filters: { every: '2hours' } }],
      }),
    ]);
    // Migration 3's folded name is filled in for a version-2 ledger: the campaign is found by any case of its name.
    expect(store.find('ÉTÉ')?.name).toBe('Été');
    expect(store.files(store.require('été').id)).toEqual([expect.objectContaining({ relativePath: 'a.fts', state: 'done', sha256: 'a'.repeat(64) })]);
  });

  it('ends with the same schema, text for text, as the released migrations made and the later ones make', async () => {
    const released = oldLedger(':memory:', 3);
    for (const migration of migrationsInOrder(STATE_DOMAINS).filter((each) => each.version > 3)) released.exec(migration.sql);
    // What the domains make from their rules at each opening (the campaigns' counting triggers), made the same way.
    for (const domain of STATE_DOMAINS) domain.keepDerived?.(released);
    const now = StateDatabase.open(':memory:', STATE_DOMAINS);
    try {
      expect(schemaOf(now.connection)).toEqual(schemaOf(released));
    } finally {
      released.close();
      now.close();
    }
    expect(releasedMigrations(3)).toHaveLength(3);
  });

  it('from a later release (a version beyond the known ones) is refused with the same message, and left as it was', async () => {
    const folder = await stateFolderAt(3);
    const file = path.join(folder, LEDGER_FILE);
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST + 1}`);
    db.close();

    const refusal = openStateLedger(folder);
    await expect(refusal).rejects.toBeInstanceOf(LedgerVersionError);
    await expect(refusal).rejects.toThrow(`The download ledger was written by a newer version (schema ${LATEST + 1}); update MLSO Downloader.`);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(LATEST + 1);
    expect(after.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 1 });
    after.close();
    expect((await readdir(folder)).filter((name) => name.includes('damaged'))).toEqual([]);
  });
});
