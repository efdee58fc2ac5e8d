// The Downloads screen's rows computed in SQL: a page of the list in the chosen order, among the chosen states and
// place, and the place's counts by state (one GROUP BY), so a queue of a million jobs never crosses to the renderer
// whole. The orders are made from the tables the renderer's comparator is made from (src-shared/downloads/job-order.ts):
// ties end on the queue's own order (priority, then id), which is where the engine's list puts each job.
import { JOB_STATES, type JobState } from '../../../src-shared/downloads/job-state';
import type { JobPageRequest, JobSort } from '../../../src-shared/downloads/job-page';
import { ORDER_VALUES, SORT_TERMS, STATE_RANK, WORK_GROUPS, type OrderValueName } from '../../../src-shared/downloads/job-order';
import type { JobCounts } from '../../../src-shared/downloads/progress-types';
import type { DownloadLedger } from './download-ledger';

/** When a job of a state ended, as its view says (job-views.ts finishedAtOf); NULL: not ended. Migration 8's indexes hold these. */
const ENDED_OF: Record<JobState, string> = {
  active: 'NULL',
  queued: 'NULL',
  paused: 'NULL',
  failed: 'COALESCE(finished_at, updated_at)',
  done: 'COALESCE(finished_at, updated_at)',
  cancelled: 'updated_at',
};

/** An SQL CASE over the state giving each state's value. */
const byState = (value: (state: JobState) => string | number) =>
  `CASE state ${JOB_STATES.map((state) => `WHEN '${state}' THEN ${value(state)}`).join(' ')} END`;

/** Where each value the orders compare is in the jobs table. */
const COLUMN_OF: Record<OrderValueName, string> = {
  stateRank: byState((state) => STATE_RANK[state]),
  filename: 'filename',
  instrument: 'instrument',
  product: 'product',
  dateObs: 'date_obs',
  expectedSize: 'expected_size',
  finishedAt: byState((state) => ENDED_OF[state]),
};
const QUEUE_ORDER = 'priority, id';

/** A column order's ORDER BY: its values in turn, a missing one last either way, then the queue's order. */
function orderBy(sort: JobSort): string {
  const direction = sort.direction === 'ascending' ? 'ASC' : 'DESC';
  const terms = SORT_TERMS[sort.key].map((name) => {
    const column = COLUMN_OF[name];
    return ORDER_VALUES[name].missing ? `${column} IS NULL, ${column} ${direction}` : `${column} ${direction}`;
  });
  return [...terms, QUEUE_ORDER].join(', ');
}

/** The WHERE of a place (and states): a folder, or a campaign's folder and the folders under it. */
function placeClause(request: Pick<JobPageRequest, 'place' | 'states'>): { where: string; values: (string | number)[] } {
  const clauses = ['cleared = 0'];
  const values: (string | number)[] = [];
  if (request.states !== null) {
    clauses.push('state IN (SELECT value FROM json_each(?))');
    values.push(JSON.stringify(request.states));
  }
  const place = placeOnly(request.place);
  return { where: [...clauses, ...place.where].join(' AND '), values: [...values, ...place.values] };
}

/** The WHERE terms of a place alone (none for every folder). */
function placeOnly(place: JobPageRequest['place']): { where: string[]; values: string[] } {
  if (place === null) return { where: [], values: [] };
  // substr rather than LIKE: a folder's own % and _ would be patterns to LIKE. Either separator, as in the renderer.
  if (!place.nested) return { where: ['folder = ?'], values: [place.folder] };
  return { where: [`(folder = ? OR substr(folder, 1, length(?) + 1) IN (? || '/', ? || '\\'))`], values: Array<string>(4).fill(place.folder) };
}

/** The ids of a page's rows, in order. */
export function pageIds(ledger: DownloadLedger, request: JobPageRequest): number[] {
  if (request.sort === null) return workFirstPage(ledger, request);
  const { where, values } = placeClause(request);
  return ledger
    .read<(string | number)[], { id: number }>(`SELECT id FROM jobs WHERE ${where} ORDER BY ${orderBy(request.sort)} LIMIT ? OFFSET ?`)
    .all(...values, request.limit, request.offset)
    .map((row) => row.id);
}

/**
 * A state's rows still in the list, said so an index answers it: the finished and failed rows' indexes (migration 8)
 * hold `cleared`; for what moves and waits, the state's cleared ids (jobs_cleared, seldom any) are left out, so those
 * rows are read from jobs_runnable alone, never from the table (at a million jobs half the time of `cleared = 0`).
 */
function stillListed(state: JobState): string {
  if (state === 'active' || state === 'queued' || state === 'paused') return `id NOT IN (SELECT id FROM jobs WHERE cleared = 1 AND state = '${state}')`;
  return 'cleared = 0';
}

/**
 * A page of the default order read group by group, each from an index (jobs_runnable for what moves and waits,
 * migration 8's for what failed and finished), instead of one ORDER BY over the groups' expressions, which sorts the
 * whole table for every page. A group's states are one SELECT each,
 * merged in order (UNION ALL under an ORDER BY is a merge in SQLite); a group is counted first when the page may
 * start past it, and skipped whole if it does.
 */
function workFirstPage(ledger: DownloadLedger, request: JobPageRequest): number[] {
  const { where: placeWhere, values } = placeOnly(request.place);
  const ids: number[] = [];
  let offset = request.offset;
  for (const group of WORK_GROUPS) {
    const states = group.states.filter((state) => request.states === null || request.states.includes(state));
    if (states.length === 0) continue;
    const armWhere = (state: JobState) => [`state = '${state}'`, stillListed(state), ...placeWhere].join(' AND ');
    const armValues = states.flatMap(() => values);
    const take = request.limit - ids.length;
    let rows: number | undefined;
    if (offset > 0) {
      const counted = ledger
        .read<(string | number)[], { n: number }>(`SELECT ${states.map((state) => `(SELECT COUNT(*) FROM jobs WHERE ${armWhere(state)})`).join(' + ')} AS n`)
        .get(...armValues);
      rows = counted?.n ?? 0;
      if (offset >= rows) {
        offset -= rows;
        continue;
      }
    }
    const arms = states.map((state) => `SELECT id, ${ENDED_OF[state]} AS ended, priority FROM jobs WHERE ${armWhere(state)}`);
    const order = (direction: 'ASC' | 'DESC', reverse: 'ASC' | 'DESC') => `${group.ended ? `ended ${direction}, ` : ''}priority ${reverse}, id ${reverse}`;
    // A page in the second half of a group is read from the group's end, in the reverse order (the same indexes read
    // backwards), so that the rows skipped are those after the page, not those before it.
    const fromEnd = rows !== undefined && offset > rows / 2;
    const page = ledger
      .read<(string | number)[], { id: number }>(
        `${arms.join(' UNION ALL ')} ORDER BY ${fromEnd ? order('ASC', 'DESC') : order('DESC', 'ASC')} LIMIT ? OFFSET ?`,
      )
      .all(...armValues, ...(fromEnd ? [Math.min(take, rows! - offset), Math.max(0, rows! - offset - take)] : [take, offset]))
      .map((row) => row.id);
    for (const id of fromEnd ? page.reverse() : page) ids.push(id);
    offset = 0;
    if (ids.length === request.limit) break;
  }
  return ids;
}

/** The place's files by state (every state: the tabs count them all). */
export function placeCounts(ledger: DownloadLedger, place: JobPageRequest['place']): JobCounts {
  const { where, values } = placeClause({ place, states: null });
  const counts: JobCounts = { total: 0, queued: 0, active: 0, paused: 0, done: 0, failed: 0, cancelled: 0 };
  const rows = ledger
    .read<(string | number)[], { state: JobState; n: number }>(`SELECT state, COUNT(*) AS n FROM jobs WHERE ${where} GROUP BY state`)
    .all(...values);
  for (const row of rows) {
    counts[row.state] = row.n;
    counts.total += row.n;
  }
  return counts;
}

/** Every folder a job of the list goes to, in order. */
export function jobFolders(ledger: DownloadLedger): string[] {
  return ledger
    .read<[], { folder: string }>('SELECT DISTINCT folder FROM jobs WHERE cleared = 0 ORDER BY folder')
    .all()
    .map((row) => row.folder);
}

/** The finished jobs (in the list) of these file names, for the player of a listing's downloaded files. */
export function finishedIds(ledger: DownloadLedger, filenames: readonly string[]): number[] {
  return ledger
    .read<[string], { id: number }>("SELECT id FROM jobs WHERE state = 'done' AND cleared = 0 AND filename IN (SELECT value FROM json_each(?)) ORDER BY id")
    .all(JSON.stringify(filenames))
    .map((row) => row.id);
}
