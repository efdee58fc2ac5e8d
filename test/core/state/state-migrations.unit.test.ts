// Each domain registers its own tables as migrations numbered in the one sequence of user_version: the downloads
// make and change the jobs and settings, the campaigns theirs, and numbers that clash or leave a gap stop the opening.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { COUNTING_TRIGGERS } from '../../../src-main/core/campaigns/campaign-counting';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { migrationsInOrder } from '../../../src-main/core/state/state-migrations';
import { temporaryFolder } from '../../helpers/fixtures';

const tablesOf = (state: StateDatabase): string[] =>
  state.connection
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);

describe('the state folder’s migrations', () => {
  it('are each domain’s own: the downloads’ make and change the jobs and settings, the campaigns’ their six tables', () => {
    // Each migration run in turn on an empty database, and the tables it made or changed noted against its domain.
    const db = new Database(':memory:');
    const touched = new Map<string, Set<string>>();
    const domainOf = new Map(STATE_DOMAINS.flatMap((domain) => domain.migrations.map((migration) => [migration.version, domain.domain] as const)));
    const schema = (): Map<string, string> =>
      new Map(
        db
          .prepare<[], { name: string; sql: string }>("SELECT name, sql FROM sqlite_master WHERE type = 'table'")
          .all()
          .map((row) => [row.name, row.sql]),
      );
    for (const migration of migrationsInOrder(STATE_DOMAINS)) {
      const before = schema();
      db.exec(migration.sql);
      const domain = domainOf.get(migration.version)!;
      for (const [name, sql] of schema()) if (before.get(name) !== sql) (touched.get(domain) ?? touched.set(domain, new Set()).get(domain)!).add(name);
    }
    db.close();
    expect(Object.fromEntries([...touched].map(([domain, tables]) => [domain, [...tables].sort()]))).toEqual({
      downloads: ['jobs', 'settings'],
      campaigns: ['campaign_counting_held', 'campaign_counts', 'campaign_files', 'campaign_queries', 'campaign_windows', 'campaigns'],
    });
  });

  it('bring a ledger one domain’s migrations behind up to date, keeping its tables', async () => {
    const file = path.join(await temporaryFolder(), 'downloads.sqlite');
    const every = StateDatabase.open(file, STATE_DOMAINS);
    const latest = every.schemaVersion;
    // Back to version 3: the downloads' 4 to 6, 8, 11 and 13 undone, and the campaigns' 7 (incremental sync), 9
    // (remembered counts), 10 (a layout change's files still moving), 12 (the server a window was listed from), 14
    // (the last whole listing), 15 (the servers the campaign was listed from) and 16 (the kept counts, whose triggers
    // go first) with them.
    for (const name of COUNTING_TRIGGERS.keys()) every.connection.exec(`DROP TRIGGER ${name}`);
    every.connection.exec(
      'PRAGMA user_version = 3; DROP TABLE campaign_counts; DROP TABLE campaign_counting_held; ALTER TABLE campaigns DROP COLUMN counted_since; DROP INDEX jobs_done_ended; DROP INDEX jobs_failed_ended; DROP INDEX jobs_cleared; DROP INDEX jobs_done_url; DROP INDEX jobs_done_filename; ALTER TABLE jobs DROP COLUMN checked_mtime_ms; ALTER TABLE jobs DROP COLUMN written_mtime_ms; ALTER TABLE jobs DROP COLUMN resume_bytes; ALTER TABLE jobs DROP COLUMN resume_validator; ALTER TABLE jobs DROP COLUMN resume_name; ALTER TABLE jobs DROP COLUMN reused_from;' +
        ' DROP TABLE campaign_windows; DROP INDEX campaign_files_name; ALTER TABLE campaign_files DROP COLUMN listed_at; ALTER TABLE campaign_files DROP COLUMN listed_by;' +
        ' ALTER TABLE campaigns DROP COLUMN layout_moving; ALTER TABLE campaigns DROP COLUMN shared_list_kept; ALTER TABLE campaigns DROP COLUMN listed_whole_at; ALTER TABLE campaigns DROP COLUMN servers_listed_from;',
    );
    every.close();
    const again = StateDatabase.open(file, STATE_DOMAINS);
    expect([tablesOf(again), again.schemaVersion, again.startedEmpty]).toEqual([
      ['campaign_counting_held', 'campaign_counts', 'campaign_files', 'campaign_queries', 'campaign_windows', 'campaigns', 'jobs', 'settings'],
      latest,
      false,
    ]);
    again.close();
  });

  it('run in the order of their numbers, whichever domain comes first', () => {
    expect(migrationsInOrder([...STATE_DOMAINS].reverse()).map((migration) => migration.version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
    ]);
  });

  it('refuse two domains taking one number, or a number left out', () => {
    const clash = { domain: 'clash', migrations: [{ version: 2, sql: 'CREATE TABLE x (a)' }] };
    const gap = { domain: 'gap', migrations: [{ version: 99, sql: 'CREATE TABLE y (a)' }] };
    expect(() => migrationsInOrder([...STATE_DOMAINS, clash])).toThrow(
      /numbered 1, 2, 3… across domains, each number once: downloads \(1, 4, 5, 6, 8, 11, 13\), campaigns \(2, 3, 7, 9, 10, 12, 14, 15, 16\), clash \(2\)/,
    );
    expect(() => migrationsInOrder([...STATE_DOMAINS, gap])).toThrow(/each number once/);
    expect(() => StateDatabase.open(':memory:', [gap])).toThrow(/each number once/);
  });
});
