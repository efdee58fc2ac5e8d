// What queuing a listing costs per entry, counted rather than timed (the million-entry timings are the bench's,
// enqueue-million): the ledger's statements a chunk runs, the rows it reads back, and the path work per entry. A
// listing of a million files comes through here chunk by chunk, so each chunk's work must not be per entry where it
// can be per chunk or per folder.
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListingEnqueuer, type EnqueuerHost } from '../../../src-main/core/downloads/listing-enqueuer';
import { TakenNames } from '../../../src-main/core/downloads/taken-names';
import { MAX_NEW_VIEWS, ProgressBoard } from '../../../src-main/core/downloads/progress-board';
import { RunTally } from '../../../src-main/core/downloads/run-tally';
import { checkSafeFilename } from '../../../src-shared/files/safe-filename';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { temporaryFolder } from '../../helpers/fixtures';
import { openStateFile } from '../state/state-file';
import { newJob } from './ledger-jobs';

const API = 'http://127.0.0.1:1';

interface CountedLedger {
  ledger: DownloadLedger;
  /** Each statement run since the ledger opened, by its SQL text: how many times, and the rows the reads returned. */
  runs: Map<string, { runs: number; rows: number }>;
}

const opened: DownloadLedger[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const ledger of opened.splice(0)) ledger.close();
});

/** A ledger whose every statement counts its runs (the ledger prepares each SQL text once, through this). */
function countedLedger(): CountedLedger {
  const { state, ledger } = openStateFile(':memory:');
  opened.push(ledger);
  const runs = new Map<string, { runs: number; rows: number }>();
  const connection = state.connection;
  const prepare = connection.prepare.bind(connection);
  vi.spyOn(connection, 'prepare').mockImplementation(((sql: string) => {
    const statement = prepare(sql) as Database.Statement<unknown[]>;
    const count = { runs: 0, rows: 0 };
    runs.set(sql.replace(/\s+/g, ' ').trim(), count);
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      Object.defineProperty(statement, method, {
        value: (...args: unknown[]) => {
          count.runs += 1;
          const result = original(...args);
          if (method === 'all') count.rows += (result as unknown[]).length;
          if (method === 'get' && result !== undefined) count.rows += 1;
          return result;
        },
      });
    }
    return statement;
  }) as typeof connection.prepare);
  return { ledger, runs };
}

const runsOf = (counted: CountedLedger, pattern: RegExp): { runs: number; rows: number } => {
  const total = { runs: 0, rows: 0 };
  for (const [sql, count] of counted.runs) {
    if (!pattern.test(sql)) continue;
    total.runs += count.runs;
    total.rows += count.rows;
  }
  return total;
};

function host(ledger: DownloadLedger): EnqueuerHost {
  return {
    ledger,
    batchId: 'work',
    isRunning: () => false,
    addressProblem: () => undefined,
    freeSpace: async () => Number.MAX_SAFE_INTEGER,
    onQueued: () => undefined,
  };
}

/** `count` KCor-like entries from the `first`th on, 15 s apart from 2025-03-24 on, in listing order. */
function entries(first: number, count: number): FileEntry[] {
  return Array.from({ length: count }, (_, index) => {
    const at = new Date(Date.UTC(2025, 2, 24) + (first + index) * 15_000).toISOString().slice(0, 19);
    const filename = `${at.replace(/[-:]/g, '').replace('T', '_')}_kcor_l2_pb.fts.gz`;
    return { 'date-obs': at, filename, filesize: 1000, instrument: 'kcor', product: 'pb', url: `${API}/v1/download?filename=${filename}` };
  });
}

describe('the work of queuing a listing', () => {
  it('writes 1,000 jobs in a few statements, not one a job, and hands back the id of each row in order', () => {
    const counted = countedLedger();
    const jobs = Array.from({ length: 1000 }, (_, index) => newJob(`f${index}.fts`));
    const ids = counted.ledger.insertMany(jobs);

    expect(runsOf(counted, /^INSERT INTO jobs/).runs).toBeLessThanOrEqual(30);
    expect(ids).toHaveLength(1000);
    expect(counted.ledger.getMany(ids).map((job) => [job.id, job.filename])).toEqual(ids.map((id, index) => [id, `f${index}.fts`]));
    // Rows of a second call follow the first's, whatever the sizes of its statements.
    const more = counted.ledger.insertMany([newJob('g0.fts'), newJob('g1.fts')]);
    expect(counted.ledger.getMany(more).map((job) => job.filename)).toEqual(['g0.fts', 'g1.fts']);
  });

  it("reads no job rows for a chunk whose places and names lie past every job in the ledger (a listing's next chunk)", async () => {
    const counted = countedLedger();
    const folder = await temporaryFolder();
    const enqueuer = await ListingEnqueuer.open(host(counted.ledger), folder, 'skip');
    await enqueuer.add(entries(0, 500));
    counted.ledger.markDone(enqueuer.result.queued[0]!, { sha256: '0'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
    const before = runsOf(counted, /^SELECT \* FROM jobs/).runs;

    await enqueuer.add(entries(500, 500));

    expect(enqueuer.result.queued).toHaveLength(1000);
    expect(runsOf(counted, /^SELECT \* FROM jobs/).runs - before).toBe(0);
  });

  it('still finds the jobs of a chunk that falls among places the ledger holds', async () => {
    const counted = countedLedger();
    const folder = await temporaryFolder();
    const listed = entries(0, 30);
    // An earlier run queued every other file of the listing, in this folder.
    const earlier = await ListingEnqueuer.open(host(counted.ledger), folder, 'skip');
    await earlier.add(listed.filter((_, index) => index % 2 === 0));
    const enqueuer = await ListingEnqueuer.open(host(counted.ledger), folder, 'skip');
    await enqueuer.add(listed);

    expect(counted.ledger.list({ batchId: 'work' })).toHaveLength(30);
    expect(new Set(enqueuer.result.queued).size).toBe(30);
    expect(enqueuer.result.queued.filter((id) => earlier.result.queued.includes(id))).toHaveLength(15);
  });

  it("finds jobs at places whose order in UTF-16 is not their order in UTF-8 (SQLite's)", () => {
    const counted = countedLedger();
    const folder = path.resolve('/data/fits');
    // In UTF-16 the emoji's surrogates sort before U+FFFD; in UTF-8 its four bytes sort after it.
    counted.ledger.insertMany([newJob('\uFFFD.fts', { folder }), newJob('\u{1F600}.fts', { folder, state: 'done' })]);
    counted.ledger.recordVerified(2, '0'.repeat(64), 1);
    const found = counted.ledger.findByTargets([path.join(folder, '\u{1F600}.fts'), path.join(folder, '\uFFFD.fts')]);
    expect([...found.keys()].sort()).toEqual([path.join(folder, '\u{1F600}.fts'), path.join(folder, '\uFFFD.fts')].sort());
    expect(counted.ledger.findFinishedCopies([], ['\uFFFD.fts', '\u{1F600}.fts']).map((job) => job.filename)).toEqual(['\u{1F600}.fts']);
  });

  it("places a layout's entries by resolving each folder once, not each entry", async () => {
    const counted = countedLedger();
    const folder = await temporaryFolder();
    const resolve = vi.spyOn(path, 'resolve');
    const relative = vi.spyOn(path, 'relative');
    const join = vi.spyOn(path, 'join');
    // A folder a day: 1,000 entries 15 s apart from midnight fall on one day; add a few of the next.
    const enqueuer = await ListingEnqueuer.open(host(counted.ledger), folder, 'skip', (entry) => `days/${entry['date-obs'].slice(0, 10)}`);
    await enqueuer.add(entries(5700, 1000));
    const pathCalls = resolve.mock.calls.length + relative.mock.calls.length + join.mock.calls.length;

    expect(enqueuer.result.queued).toHaveLength(1000);
    const jobs = counted.ledger.list({ batchId: 'work' });
    expect(new Set(jobs.map((job) => job.folder))).toEqual(new Set([path.join(folder, 'days', '2025-03-24'), path.join(folder, 'days', '2025-03-25')]));
    expect(jobs.every((job) => job.targetPath === path.join(job.folder, job.filename))).toBe(true);
    expect(pathCalls).toBeLessThan(100);
  });

  it('looks a new name up among those taken without writing it out as UTF-8 (only a name kept, or one that may match, is)', () => {
    const taken = new TakenNames();
    const names = entries(0, 2000).map((entry) => entry.filename);
    for (const name of names.slice(0, 1000)) taken.set(name, 1);
    const write = vi.spyOn(Buffer.prototype, 'write');
    for (const name of names.slice(1000)) expect(taken.get(name)).toBeUndefined();
    expect(write).not.toHaveBeenCalled();
    expect(taken.get(names[0]!)).toBe(1);
  });

  it('checks a short name safe without counting its bytes, and a long one by them', () => {
    const encode = vi.spyOn(TextEncoder.prototype, 'encode');
    for (const entry of entries(0, 100)) expect(checkSafeFilename(entry.filename)).toEqual({ ok: true });
    expect(encode).not.toHaveBeenCalled();
    expect(checkSafeFilename('é'.repeat(128))).toEqual({ ok: false, reason: 'the name is longer than 255 bytes' });
    expect(checkSafeFilename('é'.repeat(127))).toEqual({ ok: true });
  });

  it("describes the app's newly queued jobs past one update's share by runs of ids, not by a list of every id", async () => {
    const counted = countedLedger();
    const board = new ProgressBoard({
      ledger: counted.ledger,
      batchId: undefined,
      running: new Map(),
      currentRun: new RunTally(),
      pause: () => ({ queuePaused: false, pauseReason: null }),
    });
    const folder = await temporaryFolder();
    const enqueuer = await ListingEnqueuer.open({ ...host(counted.ledger), onQueued: (jobs) => board.queued(jobs) }, folder, 'skip');
    await enqueuer.add(entries(0, 3 * MAX_NEW_VIEWS));
    const getMany = vi.spyOn(counted.ledger, 'getMany');
    const described: number[] = [];
    while (board.hasNews()) for (const view of board.update(true).jobs) described.push(view.id);

    expect(described).toEqual(enqueuer.result.queued);
    expect(getMany.mock.calls.flatMap(([ids]) => ids)).toEqual([]);
  });
});
