// The Downloads screen's pages computed in SQL (job-pages.ts) over a queue of 10,000 jobs in every state, several
// folders (one a campaign's with folders under it), jobs moved to the front, and finish times out of id order: each
// order, read page by page, is the order the window's comparator gives the whole list, and the counts are the list's
// own. Both orders are made from the tables of src-shared/downloads/job-order.ts: this is what holds the SQL side
// and the comparator side of them to each other. The million-job version is the bench's `downloads-million`.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobFolders, pageIds, placeCounts } from '../../../src-main/core/downloads/job-pages';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { jobView } from '../../../src-main/core/downloads/job-views';
import { JOB_STATES, type JobState } from '../../../src-shared/downloads/job-state';
import { SORT_KEYS, type JobPageRequest, type JobPlace, type JobSort } from '../../../src-shared/downloads/job-page';
import type { JobView } from '../../../src-shared/downloads/progress-types';
import { jobComparator } from '../../../src-renderer/downloads/job-order';
import { openLedgerFile, openStateFile } from '../state/state-file';
import { newJob } from './ledger-jobs';

const COUNT = 10_000;
const ROOT = path.resolve('/data');
const CAMPAIGN = path.join(ROOT, 'mirror');
const FOLDERS = [path.join(ROOT, 'browse'), CAMPAIGN, path.join(CAMPAIGN, '2025', '03'), path.join(CAMPAIGN, '2025', '04'), `${CAMPAIGN}-old`];

let ledger: DownloadLedger;
/** The list as the engine hands it out (queue order), in views. */
let views: JobView[];
let byId: Map<number, JobView>;

/** A pseudo-random sequence, the same every run. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

beforeAll(() => {
  ledger = openLedgerFile(':memory:');
  const random = sequence(22);
  const ids = ledger.insertMany(
    Array.from({ length: COUNT }, (_, index) => ({
      ...newJob(`${String(index).padStart(5, '0')}_${Math.floor(random() * 1e6)}_kcor_l2_pb.fts`, {
        folder: FOLDERS[index % FOLDERS.length]!,
        expectedSize: Math.floor(random() * 50) * 1000,
      }),
      // Some files have no date-obs; the rest are in no particular order.
      dateObs: index % 7 === 0 ? null : new Date(Date.parse('2025-03-01T00:00:00Z') + Math.floor(random() * 1e9)).toISOString().slice(0, 19),
      instrument: index % 3 === 0 ? 'ucomp' : 'kcor',
    })),
  );
  vi.useFakeTimers();
  let clock = Date.parse('2025-06-01T00:00:00Z');
  const tick = () => vi.setSystemTime((clock += Math.floor(random() * 5000)));
  // Finish times out of id order: jobs end in a shuffled order.
  const order = [...ids].sort(() => random() - 0.5);
  const ending: JobState[] = ['done', 'done', 'done', 'failed', 'cancelled', 'paused', 'active', 'queued', 'queued', 'queued'];
  order.forEach((id, index) => {
    tick();
    const state = ending[index % ending.length]!;
    if (state === 'done') ledger.markDone(id, { sha256: 'x', bytesReceived: 1, bytesWritten: 2 });
    else if (state === 'failed') ledger.markFailed(id, 'http', 'The server said no.');
    else if (state !== 'queued') ledger.setState(id, state);
    if (index === 3000) ledger.clearFinished();
    if (index % 997 === 0) ledger.moveToFront(id);
  });
  vi.useRealTimers();
  views = ledger.list().map((job) => jobView(job, undefined));
  byId = new Map(views.map((job) => [job.id, job]));
});

afterAll(() => ledger.close());

function inPlace(job: JobView, place: JobPlace | null): boolean {
  if (place === null || job.folder === place.folder) return true;
  return place.nested && job.folder.startsWith(`${place.folder}/`);
}

/** The rows the window's comparator gives: the whole list filtered and sorted in memory, as the screen did before. */
function expected(states: readonly JobState[] | null, place: JobPlace | null, sort: JobSort | null): number[] {
  const positions = new Map(views.map((job, index) => [job.id, index]));
  return views
    .filter((job) => (states === null || states.includes(job.state)) && inPlace(job, place))
    .sort(jobComparator(sort, (id) => positions.get(id)!))
    .map((job) => job.id);
}

/** Every row, read a page at a time. */
function paged(states: JobState[] | null, place: JobPlace | null, sort: JobSort | null, limit = 450): number[] {
  const request: JobPageRequest = { offset: 0, limit, states, place, sort, counted: false };
  const rows: number[] = [];
  for (;;) {
    const page = pageIds(ledger, { ...request, offset: rows.length });
    for (const id of page) rows.push(id);
    if (page.length < limit) return rows;
  }
}

describe('the Downloads screen’s pages in SQL', () => {
  it('reads the work-first order page by page as the window’s comparator sorts the whole list', () => {
    const rows = paged(null, null, null);
    expect(rows).toHaveLength(views.length);
    expect(rows).toEqual(expected(null, null, null));
    // The groups in their order, what finished newest first.
    const states = rows.map((id) => byId.get(id)!.state);
    expect(states[0]).toBe('active');
    expect(states.at(-1)).toMatch(/done|cancelled/);
  });

  it('reads the work-first order group by group from indexes, never scanning or sorting the whole table', () => {
    // A million-job queue sorted whole took 0.4-1.3 s a page; each group read from an index takes what the page takes.
    const statements: string[] = [];
    const read = ledger.read.bind(ledger);
    const spy = vi.spyOn(ledger, 'read').mockImplementation((sql: string) => {
      statements.push(sql);
      return read(sql);
    });
    const total = views.length;
    try {
      for (const offset of [0, 2000, 5000, total - 100]) pageIds(ledger, { offset, limit: 100, states: null, place: null, sort: null, counted: false });
      pageIds(ledger, { offset: 0, limit: 100, states: ['done', 'cancelled'], place: null, sort: null, counted: false });
    } finally {
      spy.mockRestore();
    }
    const plans = statements.map((sql) => {
      const unbound = Array.from(sql.matchAll(/\?/g), () => null);
      const plan = ledger
        .read<null[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...unbound)
        .map((row) => row.detail);
      return { sql, plan };
    });
    for (const { sql, plan } of plans)
      expect(
        plan.filter((line) => /^SCAN jobs\b/.test(line)),
        sql,
      ).toEqual([]);
    // The finished and failed files newest first come from migration 8's indexes, not from a sort.
    expect(plans.some(({ plan }) => plan.some((line) => line.includes('jobs_done_ended')))).toBe(true);
    expect(plans.some(({ plan }) => plan.some((line) => line.includes('jobs_failed_ended')))).toBe(true);
  });

  it('reads a page in the second half of a group from the group’s end, so the end of a million-job list skips few rows', () => {
    const offsets: number[] = [];
    const read = ledger.read.bind(ledger);
    const spy = vi.spyOn(ledger, 'read').mockImplementation((sql: string) => {
      const statement = read<unknown[], unknown>(sql);
      return {
        get: (...values: unknown[]) => statement.get(...values),
        all: (...values: unknown[]) => {
          // A page's query ends on LIMIT ? OFFSET ?.
          if (/OFFSET \?$/.test(sql)) offsets.push(values.at(-1) as number);
          return statement.all(...values);
        },
      };
    });
    let last: number[];
    try {
      last = pageIds(ledger, { offset: views.length - 100, limit: 100, states: null, place: null, sort: null, counted: false });
    } finally {
      spy.mockRestore();
    }
    expect(last).toEqual(expected(null, null, null).slice(-100));
    expect(offsets.reduce((most, each) => Math.max(most, each), 0)).toBeLessThanOrEqual(100);
  });

  it('reads every column order, both ways, as the comparator does', () => {
    for (const key of SORT_KEYS) {
      for (const direction of ['ascending', 'descending'] as const) {
        expect(paged(null, null, { key, direction }), `${key} ${direction}`).toEqual(expected(null, null, { key, direction }));
      }
    }
  });

  it('keeps a state tab, a folder and a campaign’s folders with those under it', () => {
    const campaign: JobPlace = { folder: CAMPAIGN, nested: true };
    const folder: JobPlace = { folder: CAMPAIGN, nested: false };
    expect(paged(['failed'], null, null)).toEqual(expected(['failed'], null, null));
    expect(paged(['done', 'cancelled'], campaign, { key: 'finishedAt', direction: 'descending' })).toEqual(
      expected(['done', 'cancelled'], campaign, { key: 'finishedAt', direction: 'descending' }),
    );
    const nested = paged(null, campaign, null);
    // The campaign's folder, and those under it, but not a folder whose name merely starts the same.
    expect(nested).toEqual(expected(null, campaign, null));
    expect(nested.some((id) => byId.get(id)!.folder === `${CAMPAIGN}-old`)).toBe(false);
    expect(paged(null, folder, null)).toEqual(expected(null, folder, null));
  });

  it('counts the whole list by state from indexes, never reading the table (the overall figures every page and update carry)', () => {
    const statements: string[] = [];
    const { state, ledger: fresh } = openStateFile(':memory:');
    const prepare = state.connection.prepare.bind(state.connection);
    const spy = vi.spyOn(state.connection, 'prepare').mockImplementation((sql: string) => {
      statements.push(sql);
      return prepare(sql);
    });
    try {
      fresh.counts();
    } finally {
      spy.mockRestore();
    }
    const plan = statements.flatMap((sql) =>
      fresh
        .read<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => row.detail),
    );
    fresh.close();
    expect(plan.filter((line) => /^SCAN jobs\b/.test(line) && !/COVERING INDEX/.test(line))).toEqual([]);
    // And they are the list's own, the cleared files left out.
    const counts = ledger.counts();
    for (const each of JOB_STATES) expect(counts[each], each).toBe(views.filter((job) => job.state === each).length);
  });

  it('counts the place’s files by state, and lists the folders of the list', () => {
    const campaign: JobPlace = { folder: CAMPAIGN, nested: true };
    for (const place of [null, campaign]) {
      const kept = views.filter((job) => inPlace(job, place));
      const counts = placeCounts(ledger, place);
      expect(counts.total).toBe(kept.length);
      for (const state of JOB_STATES) expect(counts[state], state).toBe(kept.filter((job) => job.state === state).length);
    }
    expect(jobFolders(ledger)).toEqual([...new Set(views.map((job) => job.folder))].sort());
  });
});
