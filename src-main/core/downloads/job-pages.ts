// The Downloads screen's rows computed in SQL: a window of the list in the chosen order, among the chosen states and
// place, and the place's counts by state (one GROUP BY), so a queue of a million jobs never crosses to the window
// whole. The orders are the ones the renderer's comparators describe (src-renderer/lib/job-order.ts): ties end on
// the queue's own order (priority, then id), which is where the engine's list puts each job.
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { JobPageRequest, JobSort, SortKey } from '../../../src-shared/downloads/job-page';
import type { JobCounts } from '../../../src-shared/downloads/progress-types';
import type { DownloadLedger } from './download-ledger';

/** The State column's order: the groups, with paused after queued and cancelled after done. */
const STATE_RANK = `CASE state WHEN 'active' THEN 0 WHEN 'queued' THEN 1 WHEN 'paused' THEN 2 WHEN 'failed' THEN 3 WHEN 'done' THEN 4 ELSE 5 END`;
/** When a job ended, as its view says (job-views.ts finishedAtOf); null while it is still to do. */
const ENDED = `CASE WHEN state IN ('done', 'failed') THEN COALESCE(finished_at, updated_at) WHEN state = 'cancelled' THEN updated_at END`;
const QUEUE_ORDER = 'priority, id';

/** Each column's ORDER BY terms for a direction; missing values (no date-obs, not ended) last either way. */
const COLUMN: Record<SortKey, (direction: 'ASC' | 'DESC') => string> = {
  state: (direction) => `${STATE_RANK} ${direction}`,
  name: (direction) => `filename ${direction}`,
  product: (direction) => `instrument ${direction}, product ${direction}`,
  dateObs: (direction) => `date_obs IS NULL, date_obs ${direction}`,
  size: (direction) => `expected_size ${direction}`,
  finishedAt: (direction) => `${ENDED} IS NULL, ${ENDED} ${direction}`,
};

function orderBy(sort: JobSort): string {
  return `${COLUMN[sort.key](sort.direction === 'ascending' ? 'ASC' : 'DESC')}, ${QUEUE_ORDER}`;
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
  // substr rather than LIKE: a folder's own % and _ would be patterns to LIKE. Either separator, as in the window.
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

/** When a job of a state ended (ENDED for that state alone, as migration 8's indexes hold it); null: not ended. */
const ENDED_OF: Record<JobState, string> = {
  active: 'NULL',
  queued: 'NULL',
  paused: 'NULL',
  failed: 'COALESCE(finished_at, updated_at)',
  done: 'COALESCE(finished_at, updated_at)',
  cancelled: 'updated_at',
};
/** The default order's groups in order, each its states; the ended ones newest first, all then in queue order. */
const WORK_GROUPS: readonly { states: readonly JobState[]; ended: boolean }[] = [
  { states: ['active'], ended: false },
  { states: ['queued', 'paused'], ended: false },
  { states: ['failed'], ended: true },
  { states: ['done', 'cancelled'], ended: true },
];

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
 * whole table: at a million jobs 0.4-1.3 s a page against a few milliseconds. A group's states are one SELECT each,
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
    // backwards), so that the rows skipped are those after the page, not those before it: the end of a million-job
    // list skipped some 600,000 finished rows.
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
