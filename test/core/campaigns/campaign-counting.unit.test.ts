// A campaign's counts, kept by the state database's triggers (campaign-counting.ts), are at every moment what a fresh
// count of its files and their jobs gives: checked after each of thousands of random changes, made by the ledger's
// and the store's own methods and by plain SQL (any writer), to files shared by two campaigns too.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { kcorFileRecord } from '../../../scripts/bench/campaign-records';
import { countingSelect } from '../../../src-main/core/campaigns/campaign-counting';
import { CampaignStore, type CampaignFileRecord } from '../../../src-main/core/campaigns/campaign-store';
import { JOB_STATES, type DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import type { SyncReport } from '../../../src-shared/campaigns/campaign-types';
import { CHANGED_ON_DISK, MISSING_ON_DISK } from '../../../src-shared/campaigns/file-standing';
import { openStateFile } from '../state/state-file';

const opened: DownloadLedger[] = [];
afterEach(() => {
  for (const ledger of opened.splice(0)) ledger.close();
});

/** A small deterministic generator (mulberry32), so a failure names the seed that shows it. */
function randomOf(seed: number): (below: number) => number {
  let a = seed;
  return (below) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

const TIMES = [null, '2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z', '2025-01-04T00:00:00.000Z'];
const HASHES = [null, 'a'.repeat(64), 'b'.repeat(64)];
const KINDS = [null, CHANGED_ON_DISK, MISSING_ON_DISK, 'http'];
const FOLDER = '/data/shared';
/** Paths the files and jobs are placed at: few, so files and jobs meet often (and two campaigns share some). */
const PATHS = Array.from({ length: 24 }, (_, index) => path.join(FOLDER, `f${index}.fts`));

/** A sync's report as recordSync keeps it (only its start matters to the counts). */
function reportAt(at: string): SyncReport {
  const total = {
    listed: 0,
    new: 0,
    onDisk: 0,
    differs: 0,
    queued: 0,
    failed: 0,
    changed: 0,
    missing: 0,
    noLongerListed: 0,
    downloaded: 0,
    reused: 0,
    alreadyThere: 0,
    notSynced: 0,
  };
  return { campaign: 'c', at, queries: [], total, duplicates: 0, refused: [], moved: [], differing: [] };
}

function record(relativePath: string, targetPath: string, expectedSha256: string | null): CampaignFileRecord {
  return { ...kcorFileRecord(targetPath, 1, null), relativePath, expectedSha256 };
}

/** Jobs for the files at `targets`, in `state`, as the listing enqueuer makes them. */
function jobsAt(targets: readonly string[], state: (typeof JOB_STATES)[number]) {
  return targets.map((targetPath) => ({ ...kcorFileRecord(targetPath, 1, null), folder: FOLDER, expectedSize: 1, batchId: null, state }));
}

describe("a campaign's kept counts", () => {
  it.each([1, 2, 3, 4, 5, 6])('are a fresh count of its files after every random change (seed %i)', (seed) => {
    const { ledger, state } = openStateFile(':memory:');
    opened.push(ledger);
    const db = state.connection;
    const store = new CampaignStore(state);
    const random = randomOf(seed);
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const query = { instrument: 'kcor', product: 'pb', filters: {} };
    const campaigns = ['one', 'two'].map((name) => store.create({ name, folder: FOLDER, layout: '', queries: [query], autoSyncHours: null }).id);
    const kept = () => db.prepare('SELECT campaign_id, standing, arrival, files FROM campaign_counts WHERE files != 0 ORDER BY 1, 2, 3').all();
    const fresh = () => db.prepare(`SELECT * FROM (${countingSelect('true')}) ORDER BY 1, 2, 3`).all();
    const filesOf = (id: number) =>
      db
        .prepare<[number], { relative_path: string; target_path: string }>('SELECT relative_path, target_path FROM campaign_files WHERE campaign_id = ?')
        .all(id);
    const jobs = () => db.prepare<[], { id: number; target_path: string }>('SELECT id, target_path FROM jobs').all();
    const freePaths = () => PATHS.filter((target) => !jobs().some((job) => job.target_path === target));

    const changes: [string, () => void][] = [
      [
        'files listed',
        () => {
          const id = pick(campaigns);
          const files = Array.from({ length: 1 + random(4) }, () => {
            const target = pick(PATHS);
            return record(`${random(3)}/${path.basename(target)}`, target, pick(HASHES));
          });
          store.recordFiles(id, files, random(2) === 0 ? { at: pick(TIMES.slice(1))!, bit: 1 + random(2) } : undefined);
        },
      ],
      [
        'jobs queued',
        () => {
          const free = freePaths();
          if (free.length === 0) return;
          const targets = free.slice(0, 1 + random(3));
          ledger.insertMany(jobsAt(targets, pick(JOB_STATES)));
        },
      ],
      [
        'a job changed by SQL',
        () => {
          const job = jobs().length > 0 ? pick(jobs()) : undefined;
          if (!job) return;
          db.prepare('UPDATE jobs SET state = ?, sha256 = ?, last_error_kind = ?, started_at = ?, finished_at = ?, reused_from = ? WHERE id = ?').run(
            pick(JOB_STATES),
            pick(HASHES),
            pick(KINDS),
            pick(TIMES),
            pick(TIMES),
            pick([null, '/elsewhere']),
            job.id,
          );
        },
      ],
      [
        'a job done, failed or retried by the ledger',
        () => {
          const job = jobs().length > 0 ? pick(jobs()) : undefined;
          if (!job) return;
          const way = random(4);
          if (way === 0) ledger.markDone(job.id, { sha256: pick(HASHES.slice(1))!, bytesReceived: 1, bytesWritten: 1 });
          else if (way === 1) ledger.markFailed(job.id, pick(KINDS.slice(1))!, 'why');
          else if (way === 2) ledger.resetForRetry(job.id);
          else ledger.moveStates(['queued', 'failed'], 'paused');
        },
      ],
      [
        'a job moved to another path',
        () => {
          const job = jobs().length > 0 ? pick(jobs()) : undefined;
          const free = freePaths();
          if (!job || free.length === 0) return;
          db.prepare('UPDATE jobs SET target_path = ? WHERE id = ?').run(pick(free), job.id);
        },
      ],
      [
        'a file changed by SQL',
        () => {
          const id = pick(campaigns);
          const files = filesOf(id);
          if (files.length === 0) return;
          const file = pick(files);
          const way = random(3);
          if (way === 0)
            db.prepare('UPDATE campaign_files SET expected_sha256 = ? WHERE campaign_id = ? AND relative_path = ?').run(pick(HASHES), id, file.relative_path);
          else if (way === 1)
            db.prepare('UPDATE campaign_files SET listed_at = ? WHERE campaign_id = ? AND relative_path = ?').run(pick(TIMES), id, file.relative_path);
          else db.prepare('UPDATE campaign_files SET target_path = ? WHERE campaign_id = ? AND relative_path = ?').run(pick(PATHS), id, file.relative_path);
        },
      ],
      [
        'a file relocated with its job',
        () => {
          const id = pick(campaigns);
          const files = filesOf(id);
          if (files.length === 0) return;
          const file = pick(files);
          const job = jobs().find((each) => each.target_path === file.target_path);
          const free = freePaths();
          if (free.length === 0) return;
          const to = pick(free);
          store.relocateFile(id, file.relative_path, [], record(`moved/${path.basename(to)}`, to, null), job?.id ?? null);
        },
      ],
      [
        'a file and a job inserted by SQL, one row at a time',
        () => {
          const id = pick(campaigns);
          const target = pick(PATHS);
          db.prepare(
            `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, filesize, first_seen_at)
             VALUES (?, ?, ?, 'x.fts', 'u', 'kcor', 'pb', 1, ?) ON CONFLICT DO NOTHING`,
          ).run(id, `sql/${random(4)}`, target, pick(TIMES.slice(1)));
          const free = freePaths();
          if (free.length === 0) return;
          db.prepare(
            `INSERT INTO jobs (url, instrument, product, filename, folder, target_path, state, sha256, started_at, finished_at, created_at, updated_at)
             VALUES ('u', 'kcor', 'pb', 'x.fts', ?, ?, ?, ?, ?, ?, 'c', 'c')`,
          ).run(FOLDER, pick(free), pick(JOB_STATES), pick(HASHES), pick(TIMES), pick(TIMES));
        },
      ],
      [
        'a file removed',
        () => {
          const id = pick(campaigns);
          const files = filesOf(id);
          if (files.length > 0) db.prepare('DELETE FROM campaign_files WHERE campaign_id = ? AND relative_path = ?').run(id, pick(files).relative_path);
        },
      ],
      ['listed whole', () => store.recordListedWhole(pick(campaigns), pick(TIMES.slice(1))!)],
      ['a sync recorded', () => store.recordSync(pick(campaigns), reportAt(pick(TIMES.slice(1))!))],
      [
        'a campaign deleted and made again',
        () => {
          const index = random(campaigns.length);
          store.remove(campaigns[index]!);
          campaigns[index] = store.create({ name: `again ${seed} ${random(1e9)}`, folder: FOLDER, layout: '', queries: [query], autoSyncHours: null }).id;
        },
      ],
    ];
    const seen = new Set<string>();
    for (let step = 0; step < 400; step += 1) {
      const [what, change] = pick(changes);
      change();
      const now = kept() as { standing: string; arrival: string }[];
      expect(now, `after ${what} (step ${step})`).toEqual(fresh());
      for (const row of now) seen.add(`${row.standing} ${row.arrival}`);
    }
    // The run met most standings and arrivals.
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it('counts from the sync it records on: files fetched before its start are then already there, those after downloaded', () => {
    const { ledger, state } = openStateFile(':memory:');
    opened.push(ledger);
    const store = new CampaignStore(state);
    const { id } = store.create({
      name: 'arrivals',
      folder: FOLDER,
      layout: '',
      queries: [{ instrument: 'kcor', product: 'pb', filters: {} }],
      autoSyncHours: null,
    });
    store.recordFiles(
      id,
      PATHS.slice(0, 3).map((target) => record(path.basename(target), target, null)),
    );
    const ids = ledger.insertMany(jobsAt(PATHS.slice(0, 3), 'queued'));
    const finish = state.connection.prepare("UPDATE jobs SET state = 'done', sha256 = 'x', started_at = ?, finished_at = ? WHERE id = ?");
    finish.run(TIMES[1], TIMES[1], ids[0]);
    finish.run(TIMES[1], TIMES[3], ids[1]);
    store.recordSync(id, reportAt(TIMES[1]!));
    expect(store.counts(id)).toMatchObject({ onDisk: 2, downloaded: 2, alreadyThere: 0, queued: 1 });
    store.recordSync(id, reportAt(TIMES[2]!));
    expect(store.counts(id)).toMatchObject({ onDisk: 2, downloaded: 1, alreadyThere: 1, queued: 1 });
    // Seen from a sync under way (started later), without changing what is kept.
    expect(store.counts(id, TIMES[4]!)).toMatchObject({ onDisk: 2, downloaded: 0, alreadyThere: 2 });
    expect(store.counts(id)).toMatchObject({ downloaded: 1, alreadyThere: 1 });
  });
});

describe('what keeping the counts reads', () => {
  it('reads only the rows concerned: a chunk of new files or jobs, the jobs finished since a sync began, the files verify marked', () => {
    const { ledger, state } = openStateFile(':memory:');
    opened.push(ledger);
    const db = state.connection;
    const store = new CampaignStore(state);
    const { id } = store.create({
      name: 'plans',
      folder: FOLDER,
      layout: '',
      queries: [{ instrument: 'kcor', product: 'pb', filters: {} }],
      autoSyncHours: null,
    });
    const statements: string[] = [];
    const prepare = db.prepare.bind(db);
    const spy = vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    }) as typeof db.prepare);
    const records = PATHS.map((target) => record(path.basename(target), target, null));
    store.recordFiles(id, records);
    const ids = ledger.insertMany(jobsAt(PATHS, 'queued'));
    ledger.markDone(ids[0]!, { sha256: 'a'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
    store.counts(id, TIMES[1]!);
    store.countsAsMarked(id, new Map([[ids[0]!, MISSING_ON_DISK]]));
    store.recordSync(id, reportAt(TIMES[1]!));
    spy.mockRestore();
    // Statements that name neither the campaign's whole set nor the full recount: each must reach its rows through an
    // index on what it knows (a rowid range, a place, a job's id), never by walking the campaign's files.
    const concerned = statements.filter((sql) => /FROM jobs j CROSS JOIN|rowid > @after|json_each\(@marks\)/.test(sql));
    expect(concerned.length).toBeGreaterThanOrEqual(4);
    for (const sql of concerned) {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all({ id, since: TIMES[1], after: 0, marks: '{}' })
        .map((row) => (row as { detail: string }).detail);
      expect(
        plan.filter((step) => /campaign_files_name|SCAN f\b|SCAN j\b|SCAN campaign_files\b|SCAN jobs\b/.test(step)),
        sql,
      ).toEqual([]);
    }
  });
});
