import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { STATE_DOMAINS, openDownloadEngine } from '../../../src-main/core/app/open-engine';
import { DownloadLedger, type Job } from '../../../src-main/core/downloads/download-ledger';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { migrationsInOrder } from '../../../src-main/core/state/state-migrations';
import { listFolder, temporaryFolder } from '../../helpers/fixtures';
import { oldLedger } from '../state/old-ledgers';
import { openLedgerFile, openStateFile } from '../state/state-file';
import { newJob } from './ledger-jobs';
import { sha256Hex } from '../../helpers/sha256';

/** How many migrations every domain has registered: the user_version of an up-to-date ledger. */
const CURRENT_VERSION = migrationsInOrder(STATE_DOMAINS).length;

describe('ledger', () => {
  it('brings a ledger of the first schema up to date, keeping its jobs, and adds the campaign tables', async () => {
    const file = path.join(await temporaryFolder(), LEDGER_FILE);
    const old = oldLedger(file, 1);
    old
      .prepare(
        `INSERT INTO jobs (url, instrument, product, filename, folder, target_path, state, created_at, updated_at) VALUES ('u', 'kcor', 'pb', 'a.fts', '/f', '/f/a.fts', 'done', 'x', 'x')`,
      )
      .run();
    old.close();
    const { ledger, state } = openStateFile(file);
    expect(state.schemaVersion).toBe(CURRENT_VERSION);
    expect(ledger.list({ includeCleared: true }).map((job) => job.targetPath)).toEqual(['/f/a.fts']);
    expect(state.connection.prepare('SELECT COUNT(*) AS n FROM campaigns').get()).toEqual({ n: 0 });
    ledger.close();
  });

  it('creates the schema with WAL and records its version; refuses a newer one', async () => {
    const state = await temporaryFolder();
    const file = path.join(state, LEDGER_FILE);
    const { ledger, state: database } = openStateFile(file);
    expect(database.schemaVersion).toBe(CURRENT_VERSION);
    ledger.close();
    const db = new Database(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all()).toEqual(
      ['campaign_counting_held', 'campaign_counts', 'campaign_files', 'campaign_queries', 'campaign_windows', 'campaigns', 'jobs', 'settings'].map((name) => ({
        name,
      })),
    );
    db.pragma(`user_version = ${CURRENT_VERSION + 1}`);
    db.close();
    expect(() => openStateFile(file)).toThrow(/newer version/);
  });

  it('finds no damage in a ledger of an older schema (it is brought up to date), nor in a newer one (refused by its version)', async () => {
    const state = await temporaryFolder();
    const older = path.join(state, 'older.sqlite');
    oldLedger(older, 1).close();
    // Version 1 had no campaign tables: they are not missing from it.
    expect(StateDatabase.findDamage(older, STATE_DOMAINS)).toBeUndefined();

    const newer = path.join(state, 'newer.sqlite');
    openStateFile(newer).ledger.close();
    const changed = new Database(newer);
    // A newer version may have dropped or reshaped a table: that is not damage to move aside.
    changed.exec('DROP TABLE settings');
    changed.pragma(`user_version = ${CURRENT_VERSION + 1}`);
    changed.close();
    expect(StateDatabase.findDamage(newer, STATE_DOMAINS)).toBeUndefined();
    expect(() => openStateFile(newer)).toThrow(/newer version/);
  });

  it('hands each queued job to one worker only, in priority order, and respects retry times', async () => {
    const folder = await temporaryFolder();
    const ledger = openLedgerFile(':memory:');
    const a = ledger.insert(newJob('a.fts', { folder }));
    const b = ledger.insert(newJob('b.fts', { folder }));
    const c = ledger.insert(newJob('c.fts', { folder }));
    ledger.moveToFront(c.id);
    ledger.scheduleRetry(a.id, Date.now() + 60_000, 'network', 'later');
    expect(ledger.claimNext(Date.now())!.id).toBe(c.id);
    expect(ledger.claimNext(Date.now())!.id).toBe(b.id);
    expect(ledger.claimNext(Date.now())).toBeUndefined();
    expect(ledger.nextRetryAt()).toBeGreaterThan(Date.now());
    expect(ledger.claimNext(Date.now() + 61_000)!.id).toBe(a.id);
    expect(ledger.get(a.id)).toMatchObject({ state: 'active', attempts: 1 });
    expect(ledger.counts()).toMatchObject({ active: 3, queued: 0 });
    ledger.close();
  });
});

/** A job that was downloading when the process died: claimed, its temporary file recorded and, given `verified`, checked with that content's hash. */
function interruptedJob(ledger: DownloadLedger, folder: string, filename: string, tempName: string, verified?: Buffer): Job {
  const job = ledger.insert(newJob(filename, { folder }));
  ledger.claimNext(Date.now());
  ledger.recordTemporaryFile(job.id, tempName);
  if (verified) ledger.recordVerified(job.id, sha256Hex(verified), verified.length);
  return job;
}

describe('recovery after a crash', () => {
  /** What the interrupted downloads wrote: one FITS header block. */
  const body = Buffer.from('SIMPLE  =                    T'.padEnd(2880, ' '));

  it('finishes renames that were due, re-queues interrupted jobs and removes their temporary files', async () => {
    const state = await temporaryFolder();
    const folder = await temporaryFolder();
    const ledger = openLedgerFile(path.join(state, LEDGER_FILE));

    // 1: verified and renamed, but the crash came before the ledger said done.
    const renamed = interruptedJob(ledger, folder, 'renamed.fts', '.renamed.fts.0000000a.part', body);
    await writeFile(path.join(folder, 'renamed.fts'), body);
    // 2: verified, crash before the rename.
    const pending = interruptedJob(ledger, folder, 'pending.fts', '.pending.fts.0000000b.part', body);
    await writeFile(path.join(folder, '.pending.fts.0000000b.part'), body);
    // 3: half-written.
    const partial = interruptedJob(ledger, folder, 'partial.fts', '.partial.fts.0000000c.part');
    await writeFile(path.join(folder, '.partial.fts.0000000c.part'), body.subarray(0, 100));
    // 4: an old temporary file nobody recorded, and a young one another process may be writing.
    await writeFile(path.join(folder, '.orphan.fts.0000000d.part'), 'x');
    const old = new Date(Date.now() - 3600_000);
    await utimes(path.join(folder, '.orphan.fts.0000000d.part'), old, old);
    await writeFile(path.join(folder, '.young.fts.0000000e.part'), 'x');
    // Paused, so no worker picks the re-queued job up while the test looks at it.
    ledger.setSetting('queue-paused', 'true');
    ledger.close();

    const opened = await openDownloadEngine(state, { client: new MlsoClient({ baseUrl: 'http://127.0.0.1:1' }), username: () => undefined });
    try {
      expect(opened.engine.overall().queuePaused).toBe(true);
      expect(opened.ledger.get(renamed.id)).toMatchObject({ state: 'done', sha256: sha256Hex(body) });
      expect(opened.ledger.get(pending.id)).toMatchObject({ state: 'done' });
      expect(opened.ledger.get(partial.id)).toMatchObject({ state: 'queued', attempts: 0 });
      expect(await readFile(path.join(folder, 'pending.fts'))).toEqual(body);
      expect(await listFolder(folder)).toEqual(['.young.fts.0000000e.part', 'pending.fts', 'renamed.fts']);
    } finally {
      await opened.close();
    }
  });

  it('re-queues a verified file whose temporary copy no longer matches its hash, and deletes only temporary files', async () => {
    const state = await temporaryFolder();
    const folder = await temporaryFolder();
    const ledger = openLedgerFile(path.join(state, LEDGER_FILE));
    // Verified, then the temporary copy changed (a disk error, another program) before the crash.
    const changed = interruptedJob(ledger, folder, 'changed.fts', '.changed.fts.00000010.part', body);
    await writeFile(path.join(folder, '.changed.fts.00000010.part'), body.subarray(0, 2000));
    // A ledger naming a file that is not a temporary one (written by hand, or by a damaged ledger): it stays.
    const odd = interruptedJob(ledger, folder, 'odd.fts', 'notes.txt');
    await writeFile(path.join(folder, 'notes.txt'), 'the user’s own notes');
    ledger.setSetting('queue-paused', 'true');
    ledger.close();

    const opened = await openDownloadEngine(state, { client: new MlsoClient({ baseUrl: 'http://127.0.0.1:1' }), username: () => undefined });
    try {
      expect(opened.ledger.get(changed.id)).toMatchObject({ state: 'queued', attempts: 0, sha256: null, tempName: null });
      expect(opened.ledger.get(odd.id)).toMatchObject({ state: 'queued', attempts: 0 });
      expect(await listFolder(folder)).toEqual(['notes.txt']);
    } finally {
      await opened.close();
    }
  });

  it('puts back in the queue a verified file whose rename cannot be finished now, and starts all the same', async () => {
    const state = await temporaryFolder();
    const folder = await temporaryFolder();
    const ledger = openLedgerFile(path.join(state, LEDGER_FILE));
    const blocked = interruptedJob(ledger, folder, 'blocked.fts', '.blocked.fts.0000000f.part', body);
    await writeFile(path.join(folder, '.blocked.fts.0000000f.part'), body);
    // Something in the way of the rename since the crash (as a folder turned read-only would be): a folder by its name.
    await mkdir(path.join(folder, 'blocked.fts', 'inside'), { recursive: true });
    ledger.setSetting('queue-paused', 'true');
    ledger.close();

    const opened = await openDownloadEngine(state, { client: new MlsoClient({ baseUrl: 'http://127.0.0.1:1' }), username: () => undefined });
    try {
      expect(opened.ledger.get(blocked.id)).toMatchObject({ state: 'queued', attempts: 0, sha256: null, tempName: null });
      expect(await listFolder(folder)).toEqual(['blocked.fts']);
    } finally {
      await opened.close();
    }
  });
});
