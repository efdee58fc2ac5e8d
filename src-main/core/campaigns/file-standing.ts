// A campaign's counts folded in SQL, by the one rule of src-shared/campaigns/file-standing.ts.
import type Database from 'better-sqlite3';
import type { CampaignCounts } from '../../../src-shared/campaigns/campaign-types';
import { JOB_STATES, type JobState } from '../../../src-shared/downloads/job-state';
import { CHANGED_ON_DISK, MISSING_ON_DISK, arrivalSince, campaignCounts, standingOf } from '../../../src-shared/campaigns/file-standing';

/**
 * Files grouped by what standingOf and arrivalSince read of them: their job's state, which of the two hashes they
 * have and whether those are equal, why the job failed, whether a transfer fetched it (or a reuse put it in place)
 * after the last sync started, and whether it was reused. The store counts a campaign's files this way, folded in SQL (a 100,000-file campaign in a few groups,
 * not 100,000 rows), and the rules stay in the shared functions.
 */
export interface StandingGroup {
  state: JobState | null;
  hasSha256: boolean;
  hasExpectedSha256: boolean;
  sameSha256: boolean;
  lastErrorKind: string | null;
  /** A transfer fetched it (it was not taken in as already there). */
  fetched: boolean;
  /** Its job ended after the last sync started. */
  finishedSinceSync: boolean;
  /** Copied or linked from another folder instead of fetched. */
  reused: boolean;
  /** Not named by the campaign's last whole listing. */
  noLongerListed: boolean;
  files: number;
}

/** A standing group of the files a sync listed (listedNow) or not, by the queries that listed them (listed_by). */
export interface ListedStandingGroup extends StandingGroup {
  listedNow: boolean;
  listedBy: number;
}

export function countStandingGroups(groups: Iterable<StandingGroup>, lastSyncAt: string | null): CampaignCounts {
  const counted = [...groups].map((group) => {
    // A file standing for its group: hashes that are equal when the group's are, different when not; times that
    // are after the sync's start when the group's are.
    const sha256 = group.hasSha256 ? 'a' : null;
    const expectedSha256 = group.hasExpectedSha256 ? (group.sameSha256 ? sha256 : 'b') : null;
    const finishedAt = group.finishedSinceSync ? lastSyncAt : '';
    const file = {
      state: group.state,
      sha256,
      expectedSha256,
      lastErrorKind: group.lastErrorKind,
      startedAt: group.fetched ? '' : null,
      finishedAt,
      reusedFrom: group.reused ? '' : null,
      noLongerListed: group.noLongerListed,
    };
    return { standing: standingOf(file), arrival: arrivalSince(file, lastSyncAt), files: group.files };
  });
  return campaignCounts(counted, lastSyncAt !== null);
}

// ---- The facts of a file as one integer -------------------------------------------------------------------------
// SQLite reads each file's facts (of its row and its job's) into a small integer, and a user aggregate counts the
// rows of each integer: no GROUP BY, whose sorter (a temporary b-tree over every row) took more than half of the time
// of a million-file count. The integer holds facts only; what they mean stays in standingOf and arrivalSince.

/** Job states by their code (0: no job). */
const STATE_CODES: readonly (JobState | null)[] = [null, ...JOB_STATES];
/**
 * Why a job failed, by its code: the kinds standingOf tells apart, then any other (3). Any other kind stands for
 * them all, as standingOf compares a kind with these two only.
 */
const ERROR_KIND_CODES: readonly (string | null)[] = [null, CHANGED_ON_DISK, MISSING_ON_DISK, 'other'];

const BIT = {
  sha256: 8,
  expected: 16,
  same: 32,
  errorKind: 64,
  fetched: 256,
  finishedSinceSync: 512,
  listedNow: 1024,
  reused: 2048,
  noLongerListed: 4096,
} as const;

const sqlText = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * Whether a campaign file (`f`) is one the campaign's last whole listing did not name, as SQL: `listedWholeAt` is the
 * SQL of when that listing was (campaigns.listed_whole_at, or a parameter with its value; null: never). A file that
 * listing named was listed then or later; one never listed counts from when it joined the set (a shared list's): a
 * file that joined after the listing is not judged by it.
 */
export function noLongerListedSql(listedWholeAt: string): string {
  return `COALESCE(${listedWholeAt} > COALESCE(f.listed_at, f.first_seen_at), 0)`;
}

/**
 * The SQL of a file's facts as one integer, over `f` (campaign_files) LEFT JOIN `j` (jobs): `since` is the SQL of
 * when the last sync started (a parameter), `listedWholeAt` that of the campaign's last whole listing (a parameter),
 * `listedAt` that of the sync whose listings are told apart (syncCounts).
 */
export function standingFactsSql(since: string, listedWholeAt: string, listedAt?: string): string {
  const state = `CASE j.state ${JOB_STATES.map((name, index) => `WHEN ${sqlText(name)} THEN ${index + 1}`).join(' ')} ELSE 0 END`;
  const kinds = ERROR_KIND_CODES.slice(1, -1).map((kind, index) => `WHEN j.last_error_kind = ${sqlText(kind!)} THEN ${index + 1}`);
  const errorKind = `CASE WHEN j.last_error_kind IS NULL THEN 0 ${kinds.join(' ')} ELSE ${ERROR_KIND_CODES.length - 1} END`;
  return [
    `(${state})`,
    `(j.sha256 IS NOT NULL) * ${BIT.sha256}`,
    `(f.expected_sha256 IS NOT NULL) * ${BIT.expected}`,
    `(j.sha256 IS f.expected_sha256) * ${BIT.same}`,
    `(${errorKind}) * ${BIT.errorKind}`,
    `(j.started_at IS NOT NULL) * ${BIT.fetched}`,
    `COALESCE(j.finished_at >= ${since}, 0) * ${BIT.finishedSinceSync}`,
    `(j.reused_from IS NOT NULL) * ${BIT.reused}`,
    `${noLongerListedSql(listedWholeAt)} * ${BIT.noLongerListed}`,
    ...(listedAt === undefined ? [] : [`(f.listed_at IS ${listedAt}) * ${BIT.listedNow}`]),
  ].join(' + ');
}

function groupOfFacts(facts: number, listedBy: number, files: number): ListedStandingGroup {
  return {
    state: STATE_CODES[facts % BIT.sha256] ?? null,
    hasSha256: (facts & BIT.sha256) !== 0,
    hasExpectedSha256: (facts & BIT.expected) !== 0,
    sameSha256: (facts & BIT.same) !== 0,
    lastErrorKind: ERROR_KIND_CODES[Math.floor(facts / BIT.errorKind) % ERROR_KIND_CODES.length] ?? null,
    fetched: (facts & BIT.fetched) !== 0,
    finishedSinceSync: (facts & BIT.finishedSinceSync) !== 0,
    reused: (facts & BIT.reused) !== 0,
    noLongerListed: (facts & BIT.noLongerListed) !== 0,
    listedNow: (facts & BIT.listedNow) !== 0,
    listedBy,
    files,
  };
}

/** The user aggregate counting rows by facts (and listed_by): standing_groups(facts, listedBy). */
export const STANDING_FOLD = 'standing_groups';

type Fold = Map<number, Map<number, number>>;

/** A row into the fold: its facts (standingFactsSql) and its listed_by (0 when not told apart). */
function foldRow(groups: Fold, facts: number, listedBy: number): void {
  let byListed = groups.get(facts);
  if (!byListed) groups.set(facts, (byListed = new Map()));
  byListed.set(listedBy, (byListed.get(listedBy) ?? 0) + 1);
}

/** Gives a connection the aggregate standingGroupsOf reads with. */
export function addStandingFold(db: Database.Database): void {
  db.aggregate<Fold>(STANDING_FOLD, {
    start: () => new Map(),
    // Two arguments a row (better-sqlite3 counts the function's parameters), which its types do not foresee.
    step: foldRow as unknown as (groups: Fold) => void,
    result: (groups) => JSON.stringify([...groups].flatMap(([facts, byListed]) => [...byListed].map(([listedBy, files]) => [facts, listedBy, files]))),
  });
}

/**
 * The groups of a folded count: `sql` selects one row, standing_groups(<standingFactsSql>, <listed_by or 0>), of
 * the files to count; `parameters` are its parameters.
 */
export function standingGroupsOf(db: Database.Database, sql: string, parameters: readonly unknown[]): ListedStandingGroup[] {
  return groupsOfFold(
    db
      .prepare<unknown[], string | null>(sql)
      .pluck()
      .get(...parameters) ?? null,
  );
}

/** The groups a standing_groups(…) of the store's SQL gave (its result; null over no row). */
export function groupsOfFold(folded: string | null): ListedStandingGroup[] {
  const groups = folded ? (JSON.parse(folded) as [number, number, number][]) : [];
  return groups.map(([facts, listedBy, files]) => groupOfFacts(facts, listedBy, files));
}
