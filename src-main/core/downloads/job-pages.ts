// The Downloads screen's rows computed in SQL: a window of the list in the chosen order, among the chosen states and
// place, and the place's counts by state (one GROUP BY), so a queue of a million jobs never crosses to the window
// whole. The orders are the ones the renderer's comparators describe (src-renderer/lib/job-order.ts): ties end on
// the queue's own order (priority, then id), which is where the engine's list puts each job.
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { JobPageRequest, JobSort, SortKey } from '../../../src-shared/downloads/job-page';
import type { JobCounts } from '../../../src-shared/downloads/progress-types';
import type { DownloadLedger } from './download-ledger';

/** The default order's groups: moving, waiting (queued or paused, in queue order), failed, finished. */
const GROUP = `CASE state WHEN 'active' THEN 0 WHEN 'queued' THEN 1 WHEN 'paused' THEN 1 WHEN 'failed' THEN 2 ELSE 3 END`;
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

function orderBy(sort: JobSort | null): string {
  // Failed and finished files newest first; what moves and what waits keep the queue's order (their ENDED is null).
  if (sort === null) return `${GROUP}, ${ENDED} DESC, ${QUEUE_ORDER}`;
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
  const place = request.place;
  if (place !== null) {
    // substr rather than LIKE: a folder's own % and _ would be patterns to LIKE. Either separator, as in the window.
    clauses.push(place.nested ? `(folder = ? OR substr(folder, 1, length(?) + 1) IN (? || '/', ? || '\\'))` : 'folder = ?');
    for (let times = place.nested ? 4 : 1; times > 0; times--) values.push(place.folder);
  }
  return { where: clauses.join(' AND '), values };
}

/** The ids of a page's rows, in order. */
export function pageIds(ledger: DownloadLedger, request: JobPageRequest): number[] {
  const { where, values } = placeClause(request);
  return ledger
    .read<(string | number)[], { id: number }>(`SELECT id FROM jobs WHERE ${where} ORDER BY ${orderBy(request.sort)} LIMIT ? OFFSET ?`)
    .all(...values, request.limit, request.offset)
    .map((row) => row.id);
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
