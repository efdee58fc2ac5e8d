// Each domain registers its own tables as migrations numbered in the one sequence of user_version: the downloads
// make the jobs and settings alone, the campaigns theirs after, and numbers that clash or leave a gap stop the opening.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { DOWNLOAD_TABLES } from '../../../src-main/core/downloads/ledger-migrations';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { migrationsInOrder } from '../../../src-main/core/state/state-migrations';
import { temporaryFolder } from '../../helpers/fixtures';

const tablesOf = (state: StateDatabase): string[] =>
  state.connection
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);

describe('the state folder’s migrations', () => {
  it('are each domain’s own: the downloads’ make the jobs and settings, the campaigns’ are added when they join', async () => {
    const file = path.join(await temporaryFolder(), 'downloads.sqlite');
    const downloadsOnly = StateDatabase.open(file, [DOWNLOAD_TABLES]);
    expect([tablesOf(downloadsOnly), downloadsOnly.schemaVersion]).toEqual([['jobs', 'settings'], 1]);
    downloadsOnly.close();

    const every = StateDatabase.open(file, STATE_DOMAINS);
    expect([tablesOf(every), every.schemaVersion, every.startedEmpty]).toEqual([['campaign_files', 'campaign_queries', 'campaigns', 'jobs', 'settings'], 3, false]);
    every.close();
  });

  it('run in the order of their numbers, whichever domain comes first', () => {
    expect(migrationsInOrder([...STATE_DOMAINS].reverse()).map((migration) => migration.version)).toEqual([1, 2, 3]);
  });

  it('refuse two domains taking one number, or a number left out', () => {
    const clash = { domain: 'clash', migrations: [{ version: 2, sql: 'CREATE TABLE x (a)' }] };
    const gap = { domain: 'gap', migrations: [{ version: 5, sql: 'CREATE TABLE y (a)' }] };
    expect(() => migrationsInOrder([...STATE_DOMAINS, clash])).toThrow(/numbered 1, 2, 3… across domains, each number once: downloads \(1\), campaigns \(2, 3\), clash \(2\)/);
    expect(() => migrationsInOrder([...STATE_DOMAINS, gap])).toThrow(/each number once/);
    expect(() => StateDatabase.open(':memory:', [gap])).toThrow(/each number once/);
  });
});
