// Campaigns in SQLite, in the state folder's database beside the download ledger (campaign-migrations.ts, 2): their
// queries, and every file their queries listed with the path it has in the campaign's folder. A file's state is that
// of the ledger's job with the same target path, so the counts always agree with the download queue. A campaign is
// found by its name as campaign-name.ts compares names (its folded key, unique: migration 3).
import type Database from 'better-sqlite3';
import path from 'node:path';
import { campaignNameKey, sameCampaignName } from '../../../src-shared/campaigns/campaign-name';
import type { Campaign, CampaignCounts, CampaignQuery, SyncCounts, SyncReport } from '../../../src-shared/campaigns/campaign-types';
import { campaignCounts, type CountedFiles, type FileStanding } from '../../../src-shared/campaigns/file-standing';
import type { JobState } from '../../../src-shared/downloads/job-state';
import type { FilterQuery } from '../../../src-shared/filters/filter-rules';
import { textSpan } from '../downloads/download-ledger';
import { InvalidInputError } from '../errors';
import { insertManyRows, insertOfRows, type SqlValue } from '../state/rows-per-insert';
import type { StateDatabase } from '../state/state-database';
import { arrivalSql, noLongerListedSql, of, standingSql, type Columns } from './file-standing';
import { queryKey, type ListedWindow } from './campaign-windows';

export interface StoredCampaign extends Campaign {
  id: number;
  lastSync: SyncReport | null;
}

/** A campaign's file as listed (or named by a shared file list). */
export interface CampaignFileRecord {
  /** Inside the campaign's folder, `/` separators. */
  relativePath: string;
  targetPath: string;
  filename: string;
  url: string;
  instrument: string;
  product: string;
  dateObs: string | null;
  waveRegion: string | null;
  obsPlan: string | null;
  filesize: number;
  /** The SHA-256 a shared campaign file gave for it, when it came with one. */
  expectedSha256: string | null;
}

/** A campaign file with its job in the ledger, when it has one. */
export interface CampaignFileState extends CampaignFileRecord {
  firstSeenAt: string;
  jobId: number | null;
  state: JobState | null;
  sha256: string | null;
  bytesWritten: number;
  /** When its transfer started; null for a file taken in as already there. */
  startedAt: string | null;
  finishedAt: string | null;
  lastError: string | null;
  lastErrorKind: string | null;
  /** Its job's modification times, as written and as a verify last found it intact (quick-check.ts). */
  writtenMtimeMs: number | null;
  checkedMtimeMs: number | null;
  /** The folder its file was copied or linked from instead of fetched (download-ledger.ts markReused). */
  reusedFrom: string | null;
  /** The campaign's last whole listing did not name it (CampaignStore.recordListedWhole). */
  noLongerListed: boolean;
}

/** A campaign file as the store reads it: with where it stands, by the rule every count of the campaign uses (file-standing.ts). */
export interface StoredFileState extends CampaignFileState {
  standing: FileStanding;
}

export type CampaignChange = Partial<Pick<Campaign, 'name' | 'folder' | 'layout' | 'queries' | 'autoSyncHours'>>;

interface CampaignRow {
  id: number;
  name: string;
  folder: string;
  layout: string;
  auto_sync_hours: number | null;
  created_at: string;
  last_sync_at: string | null;
  last_sync: string | null;
}

/** How a sync marks the files it listed: when it started, and the bit of the query that listed them (listedBit). */
export interface ListedBy {
  at: string;
  bit: number;
}

/**
 * A query's bit among a sync's queries, for the files it listed (campaign_files.listed_by). Queries past the 50th
 * share the last bit: their per-query figures and duplicates then count together.
 */
export function listedBit(position: number): number {
  return 2 ** Math.min(position, MAX_QUERY_BIT);
}

const MAX_QUERY_BIT = 49;

interface WindowRow {
  window_start: string;
  window_end: string;
  listed_at: string;
  complete: number;
  entries: number;
  digest: string | null;
  listed_from: string | null;
}

/** What a sync's report counts of the set (CampaignStore.syncCounts). */
export interface SyncCountsOfSet {
  total: CampaignCounts;
  byQuery: CampaignCounts[];
  listed: number;
  duplicates: number;
  notDoneUnlisted: number;
}

const FILE_STATE_SELECT = `SELECT f.*, j.id AS job_id, j.state, j.sha256, j.bytes_written, j.started_at, j.finished_at, j.last_error, j.last_error_kind,
    j.written_mtime_ms, j.checked_mtime_ms, j.reused_from, ${noLongerListedSql('c.listed_whole_at')} AS no_longer_listed,
    ${standingSql(of('f'), of('j'), 'c.listed_whole_at')} AS standing
  FROM campaign_files f JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON j.target_path = f.target_path`;

/**
 * How a listing marks a file of the set (named parameters :at and :bit, a ListedBy): a file listed by several queries
 * of one sync gathers their bits; one listed by an earlier sync starts anew.
 */
const MARK_LISTED = 'listed_by = CASE WHEN listed_at IS :at THEN listed_by | :bit ELSE :bit END, listed_at = :at';
/** What a listing refreshes of a file of the set (:url, :filesize, :sha256): a shared list's hash is kept unless one is given. */
const REFRESH_FILE = 'url = :url, filesize = :filesize, expected_sha256 = COALESCE(:sha256, expected_sha256)';

/** What a listing may say anew of a file the set has. */
export type StoredFileFacts = Pick<CampaignFileRecord, 'relativePath' | 'url' | 'filesize' | 'expectedSha256'>;

interface FileRow {
  relative_path: string;
  target_path: string;
  filename: string;
  url: string;
  instrument: string;
  product: string;
  date_obs: string | null;
  wave_region: string | null;
  obs_plan: string | null;
  filesize: number;
  expected_sha256: string | null;
  first_seen_at: string;
  job_id: number | null;
  state: JobState | null;
  sha256: string | null;
  bytes_written: number | null;
  started_at: string | null;
  finished_at: string | null;
  last_error: string | null;
  last_error_kind: string | null;
  written_mtime_ms: number | null;
  checked_mtime_ms: number | null;
  reused_from: string | null;
  no_longer_listed: number;
  standing: FileStanding;
}

const now = (): string => new Date().toISOString();

const INSERT_FILES = `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, date_obs,
  wave_region, obs_plan, filesize, expected_sha256, first_seen_at, listed_at, listed_by) VALUES`;
const FILE_VALUES = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

function pushFileValues(values: SqlValue[], id: number, file: CampaignFileRecord, stamp: string, listed: ListedBy | undefined): void {
  values.push(
    id,
    file.relativePath,
    file.targetPath,
    file.filename,
    file.url,
    file.instrument,
    file.product,
    file.dateObs,
    file.waveRegion,
    file.obsPlan,
    file.filesize,
    file.expectedSha256,
    stamp,
    listed?.at ?? null,
    listed?.bit ?? 0,
  );
}

export class CampaignStore {
  private readonly db: Database.Database;
  private readonly state: StateDatabase;
  private readonly fileInserts = new Map<number, Database.Statement<[SqlValue[]]>>();

  /** The campaigns of a state folder's database opened with their tables (CAMPAIGN_STATE, campaign-state.ts). */
  constructor(state: StateDatabase) {
    this.db = state.connection;
    this.state = state;
    this.keyOlderNames();
  }

  list(): StoredCampaign[] {
    const rows = this.db.prepare<[], CampaignRow>('SELECT * FROM campaigns ORDER BY name_key, name').all();
    return rows.map((row) => this.toCampaign(row));
  }

  /** The campaign of that name, as campaign-name.ts compares names ("ÉTÉ" finds "Été"). */
  find(name: string): StoredCampaign | undefined {
    const row = this.db.prepare<[string], CampaignRow>('SELECT * FROM campaigns WHERE name_key = ?').get(campaignNameKey(name));
    return row && this.toCampaign(row);
  }

  /** The campaign of that name, or a message naming the campaigns there are. */
  require(name: string): StoredCampaign {
    const found = this.find(name);
    if (found) return found;
    const names = this.list().map((campaign) => `"${campaign.name}"`);
    const known = names.length > 0 ? `the campaigns are ${names.join(', ')}` : 'there are no campaigns yet (create one with `campaign create`)';
    throw new InvalidInputError(`There is no campaign called "${name.trim()}": ${known}.`);
  }

  create(campaign: Omit<Campaign, 'createdAt' | 'lastSyncAt'>): StoredCampaign {
    return this.db.transaction(() => {
      this.refuseTakenName(campaign.name);
      const id = Number(
        this.db
          // A campaign made by this version has its shared file list kept by it, if it has one (migration 10).
          .prepare('INSERT INTO campaigns (name, name_key, folder, layout, auto_sync_hours, created_at, shared_list_kept) VALUES (?, ?, ?, ?, ?, ?, 1)')
          .run(campaign.name, campaignNameKey(campaign.name), campaign.folder, campaign.layout, campaign.autoSyncHours, now()).lastInsertRowid,
      );
      this.writeQueries(id, campaign.queries);
      return this.byId(id);
    })();
  }

  /** Applies a change; a new folder or layout moves the campaign's files' places (`placeOf` gives each new relative path). */
  update(id: number, change: CampaignChange, placeOf?: (file: CampaignFileState) => string): StoredCampaign {
    return this.db.transaction(() => {
      const current = this.byId(id);
      if (change.name !== undefined && !sameCampaignName(change.name, current.name)) this.refuseTakenName(change.name);
      const next = { ...current, ...change };
      this.db
        .prepare('UPDATE campaigns SET name = ?, name_key = ?, folder = ?, layout = ?, auto_sync_hours = ? WHERE id = ?')
        .run(next.name, campaignNameKey(next.name), next.folder, next.layout, next.autoSyncHours, id);
      if (change.queries) this.writeQueries(id, change.queries);
      if (placeOf && (next.folder !== current.folder || next.layout !== current.layout)) this.replace(id, next.folder, placeOf);
      return this.byId(id);
    })();
  }

  remove(id: number): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM campaign_counts WHERE campaign_id = ?').run(id);
      this.db.prepare('DELETE FROM campaigns WHERE id = ?').run(id);
    })();
  }

  /**
   * Adds listed files to the campaign's set, or refreshes what the archive says of them (URL, size); returns how many
   * were not in the set before. `stored`, when the caller has just read them (filesNamed, no write since), are the
   * set's files of these files' names: they spare a look-up of the files in the set.
   */
  recordFiles(id: number, files: readonly CampaignFileRecord[], listed?: ListedBy, stored?: readonly StoredFileFacts[]): number {
    const refresh = this.db.prepare(
      `UPDATE campaign_files SET ${REFRESH_FILE}${listed ? `, ${MARK_LISTED}` : ''} WHERE campaign_id = :id AND relative_path = :path`,
    );
    const refreshFile = (file: CampaignFileRecord): void =>
      void refresh.run({ id, path: file.relativePath, url: file.url, filesize: file.filesize, sha256: file.expectedSha256, ...listed });
    let added = 0;
    this.db.transaction(() => {
      // A relisted window's files are nearly all in the set: refreshed in one statement, and when that was every
      // file, nothing is inserted (an insert that finds each key taken, then an update a file, cost seconds at a
      // million). A first sync's chunks lie past every file of the set, and skip it.
      const known = this.refreshKnown(id, files, listed, refreshFile, stored);
      if (known === files.length) return;
      const stamp = now();
      const refreshed: CampaignFileRecord[] = [];
      this.state.insertingMany('campaign_files', () =>
        insertManyRows(
          files,
          (rows) => this.insertFiles(rows),
          (values, file) => pushFileValues(values, id, file, stamp, listed),
          ({ changes }, start, rows) => {
            added += changes;
            if (changes === rows) return;
            for (const file of files.slice(start, start + rows)) refreshed.push(file);
          },
        ),
      );
      // Some were in the set: each file of those statements refreshed in turn, so that a file named twice keeps what
      // its last naming says (one a statement has just inserted stays as it is). After the inserts are counted, so
      // that the counts see each change to a file once.
      for (const file of refreshed) refreshFile(file);
    })();
    return added;
  }

  /**
   * Marks the files of `files` the set has (`given`, or looked up) as listed by `listed`, in one statement, and has
   * `refreshFile` refresh one only where the listing says something new of it (its address, size or shared hash);
   * returns how many of `files` the set has.
   */
  private refreshKnown(
    id: number,
    files: readonly CampaignFileRecord[],
    listed: ListedBy | undefined,
    refreshFile: (file: CampaignFileRecord) => void,
    given?: readonly StoredFileFacts[],
  ): number {
    if (files.length === 0 || given?.length === 0) return 0;
    const stored = new Map<string, StoredFileFacts>((given ?? this.storedFacts(id, files)).map((file) => [file.relativePath, file]));
    const knownPaths = files.filter((file) => stored.has(file.relativePath)).map((file) => file.relativePath);
    if (knownPaths.length === 0) return 0;
    if (listed) {
      this.db
        .prepare(`UPDATE campaign_files SET ${MARK_LISTED} WHERE campaign_id = :id AND relative_path IN (SELECT value FROM json_each(:paths))`)
        .run({ id, paths: JSON.stringify(knownPaths), ...listed });
    }
    // In the listing's order, so that a file named twice keeps what its last naming says.
    for (const file of files) {
      const row = stored.get(file.relativePath);
      if (!row) continue;
      const expectedSha256 = file.expectedSha256 ?? row.expectedSha256;
      if (file.url === row.url && file.filesize === row.filesize && expectedSha256 === row.expectedSha256) continue;
      refreshFile(file);
      stored.set(file.relativePath, { relativePath: file.relativePath, url: file.url, filesize: file.filesize, expectedSha256 });
    }
    return knownPaths.length;
  }

  /** The set's files at the paths of `files` (none looked up when those lie past every file of the set). */
  private storedFacts(id: number, files: readonly CampaignFileRecord[]): StoredFileFacts[] {
    const paths = files.map((file) => file.relativePath);
    const span = textSpan(paths);
    if (span && !this.anyBetween(id, 'relative_path', span)) return [];
    return this.db
      .prepare<[number, string], StoredFileFacts>(
        `SELECT relative_path AS relativePath, url, filesize, expected_sha256 AS expectedSha256 FROM campaign_files
         WHERE campaign_id = ? AND relative_path IN (SELECT value FROM json_each(?))`,
      )
      .all(id, JSON.stringify(paths));
  }

  /** The statement inserting `rows` files unless the set has them (prepared once a store). */
  private insertFiles(rows: number): Database.Statement<[SqlValue[]]> {
    let insert = this.fileInserts.get(rows);
    if (!insert) {
      insert = this.db.prepare<[SqlValue[]]>(`${insertOfRows(INSERT_FILES, FILE_VALUES, rows)} ON CONFLICT (campaign_id, relative_path) DO NOTHING`);
      this.fileInserts.set(rows, insert);
    }
    return insert;
  }

  /**
   * A file the listing now places elsewhere (see campaign-sync): the record at `from` takes the new place and what
   * the listing says now, keeping when it was first seen and the shared list's SHA-256; other records of the same
   * file (`alsoFrom`, and one at the new place) go. `jobId` is the finished job whose file was moved there with it.
   */
  relocateFile(id: number, from: string, alsoFrom: readonly string[], to: CampaignFileRecord, jobId: number | null): void {
    this.db.transaction(() => {
      const remove = this.db.prepare('DELETE FROM campaign_files WHERE campaign_id = ? AND relative_path = ?');
      for (const relativePath of [to.relativePath, ...alsoFrom]) if (relativePath !== from) remove.run(id, relativePath);
      this.db
        .prepare(
          `UPDATE campaign_files SET relative_path = ?, target_path = ?, url = ?, instrument = ?, product = ?, date_obs = ?, wave_region = ?,
             obs_plan = ?, filesize = ?, expected_sha256 = COALESCE(expected_sha256, ?) WHERE campaign_id = ? AND relative_path = ?`,
        )
        .run(
          to.relativePath,
          to.targetPath,
          to.url,
          to.instrument,
          to.product,
          to.dateObs,
          to.waveRegion,
          to.obsPlan,
          to.filesize,
          to.expectedSha256,
          id,
          from,
        );
      if (jobId !== null) this.db.prepare('UPDATE jobs SET folder = ?, target_path = ? WHERE id = ?').run(path.dirname(to.targetPath), to.targetPath, jobId);
    })();
  }

  /** Every file of the campaign with its job, in observation order. */
  files(id: number): StoredFileState[] {
    return this.db.prepare<[number], FileRow>(`${FILE_STATE_SELECT} WHERE f.campaign_id = ? ORDER BY f.date_obs, f.relative_path`).all(id).map(toFileState);
  }

  /** The campaign's files of these names, wherever they are (one query for a chunk of a listing). */
  filesNamed(id: number, filenames: readonly string[]): StoredFileState[] {
    return this.filesWhereIn(id, 'filename', filenames);
  }

  /** The campaign's files at these relative paths. */
  filesAt(id: number, relativePaths: readonly string[]): StoredFileState[] {
    return this.filesWhereIn(id, 'relative_path', relativePaths);
  }

  /**
   * The campaign's files whose `column` is one of `values`, after one look into its index between the first and last
   * of them (textSpan): a first sync's chunks lie past every file recorded before them, and need no look per name.
   */
  private filesWhereIn(id: number, column: 'filename' | 'relative_path', values: readonly string[]): StoredFileState[] {
    if (values.length === 0) return [];
    const span = textSpan(values);
    if (span && !this.anyBetween(id, column, span)) return [];
    return this.db
      .prepare<[number, string], FileRow>(`${FILE_STATE_SELECT} WHERE f.campaign_id = ? AND f.${column} IN (SELECT value FROM json_each(?))`)
      .all(id, JSON.stringify(values))
      .map(toFileState);
  }

  private anyBetween(id: number, column: 'filename' | 'relative_path', [first, last]: [string, string]): boolean {
    const sql = `SELECT EXISTS (SELECT 1 FROM campaign_files WHERE campaign_id = ? AND ${column} BETWEEN ? AND ?) AS near`;
    return this.db.prepare<[number, string, string], { near: number }>(sql).get(id, first, last)?.near === 1;
  }

  /**
   * The next `limit` files after `afterPath` (by relative path) that the ledger does not say are downloaded, that
   * the sync started at `at` did not list and that the archive still lists (as far as the last whole listing knows):
   * what a sync queues beyond its listings. Read a page at a time, so a million-file set is never in memory.
   */
  filesNotDone(id: number, at: string, afterPath: string, limit: number): StoredFileState[] {
    return this.db
      .prepare<[number, string, string, number], FileRow>(
        `${FILE_STATE_SELECT} WHERE f.campaign_id = ? AND f.relative_path > ? AND f.listed_at IS NOT ? AND j.state IS NOT 'done'
           AND ${noLongerListedSql('c.listed_whole_at')} = 0
         ORDER BY f.relative_path LIMIT ?`,
      )
      .all(id, afterPath, at, limit)
      .map(toFileState);
  }

  /** Files whose job's SHA-256 is not the one a shared file list gave (few): the candidates for `differs`. */
  filesWithOtherSha256(id: number): StoredFileState[] {
    return this.db
      .prepare<[number], FileRow>(
        `${FILE_STATE_SELECT} WHERE f.campaign_id = ? AND f.expected_sha256 IS NOT NULL AND j.sha256 IS NOT NULL AND j.sha256 != f.expected_sha256
         ORDER BY f.date_obs, f.relative_path`,
      )
      .all(id)
      .map(toFileState);
  }

  /**
   * What a sync's report counts, in one pass over the set (a pass over a million files takes seconds): the campaign's counts (as `counts`, from the sync's start `at`), those of the files each of
   * `queryCount` queries listed in the sync started at `at` (their number in `files`), how many distinct files it
   * listed, how many of those more than one query listed (after the first), and how many files no listing of that
   * sync named the ledger does not say are downloaded and the archive still lists (what filesNotDone pages through:
   * none is the usual case).
   */
  syncCounts(id: number, at: string, queryCount: number): SyncCountsOfSet {
    const all = this.countedSince(id, at);
    const listedNow = this.db
      .prepare<[{ id: number; at: string }], CountedFiles & { listedBy: number }>(
        `SELECT ${standingSql(of('f'), of('j'), 'c.listed_whole_at')} AS standing, ${arrivalSql(of('j'), '@at')} AS arrival, f.listed_by AS listedBy,
           COUNT(*) AS files
         FROM campaign_files f JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON j.target_path = f.target_path
         WHERE f.campaign_id = @id AND f.listed_at = @at GROUP BY 1, 2, 3`,
      )
      .all({ id, at });
    let listed = 0;
    let duplicates = 0;
    for (const group of listedNow) {
      listed += group.files;
      duplicates += (bitsSet(group.listedBy) - 1) * group.files;
    }
    const byQuery = Array.from({ length: queryCount }, (_, position) =>
      campaignCounts(
        listedNow.filter((group) => hasBit(group.listedBy, listedBit(position))),
        true,
      ),
    );
    const notDone = (groups: readonly CountedFiles[]): number =>
      groups.filter((group) => NOT_DONE.has(group.standing)).reduce((sum, group) => sum + group.files, 0);
    return { total: campaignCounts(all, true), byQuery, listed, duplicates, notDoneUnlisted: notDone(all) - notDone(listedNow) };
  }

  // ---- Servers the campaign was listed from (migration 15, campaign-addresses.ts) ----------------------------------

  /** The API base URLs the campaign's queries were ever listed from. */
  serversListedFrom(id: number): string[] {
    return this.db.prepare<[number], string>('SELECT s.value FROM campaigns c, json_each(c.servers_listed_from) s WHERE c.id = ?').pluck().all(id);
  }

  /** Remembers that the campaign's queries are listed from `baseUrl` (before its listing is read: its addresses are on it). */
  recordServerListedFrom(id: number, baseUrl: string): void {
    this.db
      .prepare(
        `UPDATE campaigns SET servers_listed_from = json_insert(servers_listed_from, '$[#]', @baseUrl)
         WHERE campaigns.id = @id AND NOT EXISTS (SELECT 1 FROM json_each(campaigns.servers_listed_from) s WHERE s.value = @baseUrl)`,
      )
      .run({ id, baseUrl });
  }

  // ---- Windows (incremental sync, campaign-windows.ts) ----------------------------------------------------------

  /** The windows of a query the campaign remembers, by start. */
  windows(id: number, query: CampaignQuery): Map<string, ListedWindow> {
    const rows = this.db
      .prepare<[number, string], WindowRow>('SELECT * FROM campaign_windows WHERE campaign_id = ? AND query_key = ?')
      .all(id, queryKey(query));
    return new Map(rows.map((row) => [row.window_start, toWindow(row)]));
  }

  /** Records a window's listing: begun (not complete) before it is read, complete with its entries and digest after. */
  recordWindow(id: number, query: CampaignQuery, window: ListedWindow): void {
    this.db
      .prepare(
        `INSERT INTO campaign_windows (campaign_id, query_key, window_start, window_end, listed_at, complete, entries, digest, listed_from)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (campaign_id, query_key, window_start) DO UPDATE SET window_end = excluded.window_end, listed_at = excluded.listed_at,
           complete = excluded.complete, entries = excluded.entries, digest = excluded.digest, listed_from = excluded.listed_from`,
      )
      .run(id, queryKey(query), window.start, window.end, window.listedAt, window.complete ? 1 : 0, window.entries, window.digest, window.listedFrom);
  }

  /**
   * The campaign's counts (campaignCounts): the one function behind the card, `campaign show/list --json`, verify's
   * report and the sync's summary. `lastSyncAt` is when the last sync started (the campaign's own unless given: a
   * sync under way counts from its own start); downloaded counts the files fetched since.
   */
  counts(id: number, lastSyncAt: string | null = this.byId(id).lastSyncAt): CampaignCounts {
    return campaignCounts(this.countedSince(id, lastSyncAt), lastSyncAt !== null);
  }

  /**
   * The campaign's counts as `counts` would give them once each job of `marks` were marked failed with its kind (as
   * verify marks the files it finds missing or changed on disk, DownloadLedger.markFailed), written nowhere: for a
   * verify reading beside the program that holds the state folder. The marked files are counted again as failed
   * jobs of their kind, by the same rule.
   */
  countsAsMarked(id: number, marks: ReadonlyMap<number, string>): CampaignCounts {
    const since = this.byId(id).lastSyncAt;
    const marked: Columns = (column) => (column === 'state' ? `'failed'` : column === 'last_error_kind' ? 'm.value' : `j.${column}`);
    // Found from their jobs, not by another pass over the campaign (a few files among a million, as a rule): each
    // by its job's id, then its file by target path (`+` keeps SQLite from taking the campaign's index instead, a
    // pass over the campaign for every marked file).
    const changes = this.db
      .prepare<[{ id: number; since: string | null; marks: string }], CountedFiles & { marked: FileStanding; markedArrival: CountedFiles['arrival'] }>(
        `SELECT ${standingSql(of('f'), of('j'), 'c.listed_whole_at')} AS standing, ${arrivalSql(of('j'), '@since')} AS arrival,
           ${standingSql(of('f'), marked, 'c.listed_whole_at')} AS marked, ${arrivalSql(marked, '@since')} AS markedArrival, COUNT(*) AS files
         FROM json_each(@marks) m CROSS JOIN jobs j ON j.id = CAST(m.key AS INTEGER) CROSS JOIN campaign_files f ON f.target_path = j.target_path
           CROSS JOIN campaigns c ON c.id = f.campaign_id
         WHERE +f.campaign_id = @id GROUP BY 1, 2, 3, 4`,
      )
      .all({ id, since, marks: JSON.stringify(Object.fromEntries(marks)) });
    const groups: CountedFiles[] = [...this.countedSince(id, since)];
    for (const change of changes) {
      groups.push({ standing: change.standing, arrival: change.arrival, files: -change.files });
      groups.push({ standing: change.marked, arrival: change.markedArrival, files: change.files });
    }
    return campaignCounts(groups, since !== null);
  }

  /**
   * The campaign's files by standing and arrival, arrivals seen from the sync that started at `since`: the counts
   * the triggers keep (campaign-counting.ts), from the sync the campaign counts arrivals from; from another, with the
   * files finished since `since` looked at again (those a sync under way has fetched: few, or none).
   */
  private countedSince(id: number, since: string | null): CountedFiles[] {
    const kept = this.db.prepare<[number], CountedFiles>('SELECT standing, arrival, files FROM campaign_counts WHERE campaign_id = ? AND files != 0').all(id);
    const countedSince = this.db.prepare<[number], string | null>('SELECT counted_since FROM campaigns WHERE id = ?').pluck().get(id) ?? null;
    if (since === countedSince) return kept;
    const arrived =
      since === null
        ? []
        : this.db
            .prepare<[{ id: number; since: string }], CountedFiles>(
              // The finished jobs' own index (migration 8), read from `since` on: every other file was already there.
              // Each job's file by its place (the order pinned, and `+`: through the campaign's index SQLite would
              // walk every file of the campaign for each job).
              `SELECT ${standingSql(of('f'), of('j'), 'c.listed_whole_at')} AS standing, ${arrivalSql(of('j'), '@since')} AS arrival, COUNT(*) AS files
               FROM jobs j CROSS JOIN campaign_files f ON f.target_path = j.target_path CROSS JOIN campaigns c ON c.id = f.campaign_id
               WHERE j.state = 'done' AND j.cleared IN (0, 1) AND COALESCE(j.finished_at, j.updated_at) >= @since AND j.finished_at >= @since
                 AND j.started_at IS NOT NULL AND +f.campaign_id = @id
               GROUP BY 1, 2`,
            )
            .all({ id, since });
    const counted: CountedFiles[] = [];
    const standings = new Map<FileStanding, number>();
    for (const group of kept) standings.set(group.standing, (standings.get(group.standing) ?? 0) + group.files);
    for (const [standing, files] of standings) {
      let alreadyThere = files;
      for (const group of arrived) {
        if (group.standing !== standing) continue;
        counted.push(group);
        alreadyThere -= group.files;
      }
      counted.push({ standing, arrival: 'alreadyThere', files: alreadyThere });
    }
    return counted;
  }

  /** Marks a layout change whose files are being moved, or done moving (migration 10, campaign-relayout.ts). */
  markLayoutMoving(id: number, moving: boolean): void {
    this.db.prepare('UPDATE campaigns SET layout_moving = ? WHERE id = ?').run(moving ? 1 : 0, id);
  }

  /** A layout change was stopped before each of its files was moved (markLayoutMoving). */
  isLayoutMoving(id: number): boolean {
    return this.db.prepare<[number], number>('SELECT layout_moving FROM campaigns WHERE id = ?').pluck().get(id) === 1;
  }

  /** The shared file list's promises of the campaign are kept beside its copy, or it has none (migration 10). */
  markSharedListKept(id: number): void {
    this.db.prepare('UPDATE campaigns SET shared_list_kept = 1 WHERE id = ?').run(id);
  }

  /** The campaigns not yet marked by markSharedListKept: those of a ledger from before lists were kept. */
  sharedListsUnkept(): StoredCampaign[] {
    return this.db
      .prepare<[], CampaignRow>('SELECT * FROM campaigns WHERE shared_list_kept = 0')
      .all()
      .map((row) => this.toCampaign(row));
  }

  /** The campaign's files a shared file list promised a SHA-256 for, one at a time. */
  *filesPromised(id: number): Generator<StoredFileState> {
    const rows = this.db.prepare<[number], FileRow>(`${FILE_STATE_SELECT} WHERE f.campaign_id = ? AND f.expected_sha256 IS NOT NULL`).iterate(id);
    for (const row of rows) yield toFileState(row);
  }

  /**
   * Records that the sync started at `at` listed every query of the campaign whole: from then on, a file of the set
   * it did not name is one the archive no longer lists (until a listing names it again). The files whose standing
   * that changes are counted again: those listed (or added) between the last whole listing and this one.
   */
  recordListedWhole(id: number, at: string): void {
    this.db.transaction(() => {
      const whole = this.listedWholeAt(id);
      if (whole === at) return;
      const changed = `f.campaign_id = @id AND ${noLongerListedSql('@whole')} IS NOT ${noLongerListedSql('@at')}`;
      const recounted = (listedWholeAt: string, files: string): string =>
        `SELECT f.campaign_id, ${standingSql(of('f'), of('j'), listedWholeAt)} AS standing, ${arrivalSql(of('j'), 'c.counted_since')} AS arrival, ${files} AS files
         FROM campaign_files f JOIN campaigns c ON c.id = f.campaign_id LEFT JOIN jobs j ON j.target_path = f.target_path WHERE ${changed}`;
      this.db
        .prepare(
          `INSERT INTO campaign_counts (campaign_id, standing, arrival, files)
           SELECT campaign_id, standing, arrival, SUM(files) FROM (${recounted('@whole', '-1')} UNION ALL ${recounted('@at', '1')}) GROUP BY 1, 2, 3
           ON CONFLICT (campaign_id, standing, arrival) DO UPDATE SET files = files + excluded.files`,
        )
        .run({ id, whole, at });
      this.db.prepare('UPDATE campaigns SET listed_whole_at = ? WHERE id = ?').run(at, id);
    })();
  }

  /** When a sync last listed the campaign whole (recordListedWhole), or null. */
  private listedWholeAt(id: number): string | null {
    return this.db.prepare<[number], string | null>('SELECT listed_whole_at FROM campaigns WHERE id = ?').pluck().get(id) ?? null;
  }

  /**
   * Whether any campaign file has one of these target paths (the queue's progress concerns campaigns only then).
   * One query for a whole progress update, which can name thousands of files.
   */
  holdsAnyTarget(targetPaths: readonly string[]): boolean {
    if (targetPaths.length === 0) return false;
    return (
      this.db
        .prepare<[string], { one: number }>('SELECT 1 AS one FROM campaign_files WHERE target_path IN (SELECT value FROM json_each(?)) LIMIT 1')
        .get(JSON.stringify(targetPaths)) !== undefined
    );
  }

  /**
   * Records a sync's report; the campaign's counts then count arrivals from its start (files fetched before it was
   * are counted as already there).
   */
  recordSync(id: number, report: SyncReport): void {
    this.db.transaction(() => {
      const counted = this.countedSince(id, report.at);
      this.db.prepare('DELETE FROM campaign_counts WHERE campaign_id = ?').run(id);
      const keep = this.db.prepare('INSERT INTO campaign_counts (campaign_id, standing, arrival, files) VALUES (?, ?, ?, ?)');
      for (const group of counted) if (group.files !== 0) keep.run(id, group.standing, group.arrival, group.files);
      this.db
        .prepare('UPDATE campaigns SET last_sync_at = ?, last_sync = ?, counted_since = ? WHERE id = ?')
        .run(report.at, JSON.stringify(report), report.at, id);
    })();
  }

  private byId(id: number): StoredCampaign {
    const row = this.db.prepare<[number], CampaignRow>('SELECT * FROM campaigns WHERE id = ?').get(id);
    if (!row) throw new InvalidInputError('That campaign no longer exists.');
    return this.toCampaign(row);
  }

  private refuseTakenName(name: string): void {
    const taken = this.find(name);
    if (taken) throw new InvalidInputError(`A campaign called "${taken.name}" already exists: choose another name.`);
  }

  /** `name`, or the first of "name (2)", "name (3)"… that no campaign has (two copies of one name, taken back). */
  freeName(name: string): string {
    let free = name;
    for (let number = 2; this.find(free); number += 1) free = `${name} (${number})`;
    return free;
  }

  /**
   * Gives the campaigns of a ledger from before migration 3 their folded names. Two names that were different then
   * may be the same name now ("Été" and "été"): the earlier campaign keeps its name, and a later one is renamed to
   * the first of "été (2)", "été (3)"… that no campaign has, keeping everything else.
   */
  private keyOlderNames(): void {
    if (this.db.prepare('SELECT 1 FROM campaigns WHERE name_key IS NULL LIMIT 1').get() === undefined) return;
    this.db.transaction(() => {
      const rows = this.db.prepare<[], { id: number; name: string; name_key: string | null }>('SELECT id, name, name_key FROM campaigns ORDER BY id').all();
      const taken = new Set(rows.flatMap((row) => (row.name_key === null ? [] : [row.name_key])));
      const later: typeof rows = [];
      for (const row of rows.filter((candidate) => candidate.name_key === null)) {
        const key = campaignNameKey(row.name);
        if (taken.has(key)) later.push(row);
        else taken.add(key);
      }
      // Every name kept is taken before any is renamed, so that no new name can be one of theirs.
      const rename = this.db.prepare('UPDATE campaigns SET name = ?, name_key = ? WHERE id = ?');
      for (const row of later) {
        let free = row.name;
        for (let number = 2; taken.has(campaignNameKey(free)); number += 1) free = `${row.name} (${number})`;
        taken.add(campaignNameKey(free));
        rename.run(free, campaignNameKey(free), row.id);
      }
      const keep = this.db.prepare('UPDATE campaigns SET name_key = ? WHERE id = ? AND name_key IS NULL');
      for (const row of rows) keep.run(campaignNameKey(row.name), row.id);
    })();
  }

  private writeQueries(id: number, queries: readonly CampaignQuery[]): void {
    this.db.prepare('DELETE FROM campaign_queries WHERE campaign_id = ?').run(id);
    // A query changed or removed: what its windows were says nothing of the new one.
    this.db
      .prepare('DELETE FROM campaign_windows WHERE campaign_id = ? AND query_key NOT IN (SELECT value FROM json_each(?))')
      .run(id, JSON.stringify(queries.map(queryKey)));
    const insert = this.db.prepare('INSERT INTO campaign_queries (campaign_id, position, instrument, product, filters) VALUES (?, ?, ?, ?, ?)');
    queries.forEach((query, position) => insert.run(id, position, query.instrument, query.product, JSON.stringify(query.filters)));
  }

  /** New places for every file of a campaign whose folder or layout changed. */
  private replace(id: number, folder: string, placeOf: (file: CampaignFileState) => string): void {
    const move = this.db.prepare('UPDATE campaign_files SET relative_path = ?, target_path = ? WHERE campaign_id = ? AND relative_path = ?');
    // Through a temporary prefix first: a new path may be another file's old one.
    const files = this.files(id);
    for (const file of files) move.run(`\u0000${file.relativePath}`, file.targetPath, id, file.relativePath);
    for (const file of files) {
      const relativePath = placeOf(file);
      move.run(relativePath, path.join(folder, ...relativePath.split('/')), id, `\u0000${file.relativePath}`);
    }
  }

  private toCampaign(row: CampaignRow): StoredCampaign {
    const queries = this.db
      .prepare<[number], { instrument: string; product: string; filters: string }>(
        'SELECT instrument, product, filters FROM campaign_queries WHERE campaign_id = ? ORDER BY position',
      )
      .all(row.id)
      .map((query) => ({ instrument: query.instrument, product: query.product, filters: JSON.parse(query.filters) as FilterQuery }));
    return {
      id: row.id,
      name: row.name,
      folder: row.folder,
      layout: row.layout,
      queries,
      autoSyncHours: row.auto_sync_hours,
      createdAt: row.created_at,
      lastSyncAt: row.last_sync_at,
      lastSync: row.last_sync ? withNewerCounts(JSON.parse(row.last_sync) as SyncReport) : null,
    };
  }
}

/** A report recorded by a version that did not tell reused or no longer listed files apart, with none of them in its rows. */
function withNewerCounts(report: SyncReport): SyncReport {
  const counted = <T extends SyncCounts>(counts: T): T => {
    const older = counts as Partial<SyncCounts>;
    return { ...counts, reused: older.reused ?? 0, noLongerListed: older.noLongerListed ?? 0 };
  };
  return { ...report, queries: report.queries.map(counted), total: counted(report.total) };
}

function toFileState(row: FileRow): StoredFileState {
  return {
    relativePath: row.relative_path,
    targetPath: row.target_path,
    filename: row.filename,
    url: row.url,
    instrument: row.instrument,
    product: row.product,
    dateObs: row.date_obs,
    waveRegion: row.wave_region,
    obsPlan: row.obs_plan,
    filesize: row.filesize,
    expectedSha256: row.expected_sha256,
    firstSeenAt: row.first_seen_at,
    jobId: row.job_id,
    state: row.state,
    sha256: row.sha256,
    bytesWritten: row.bytes_written ?? 0,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    lastError: row.last_error,
    lastErrorKind: row.last_error_kind,
    writtenMtimeMs: row.written_mtime_ms,
    checkedMtimeMs: row.checked_mtime_ms,
    reusedFrom: row.reused_from,
    noLongerListed: row.no_longer_listed === 1,
    standing: row.standing,
  };
}

function toWindow(row: WindowRow): ListedWindow {
  return {
    start: row.window_start,
    end: row.window_end,
    listedAt: row.listed_at,
    complete: row.complete === 1,
    entries: row.entries,
    digest: row.digest,
    listedFrom: row.listed_from,
  };
}

/** Whether `value` has `bit` (a power of two up to 2 ** MAX_QUERY_BIT: past JavaScript's 32-bit `&`). */
/** Where a file stands whose job is not done: what a sync queues unless the archive no longer lists it. */
const NOT_DONE: ReadonlySet<FileStanding> = new Set(['queued', 'failed', 'changed', 'missing']);

function hasBit(value: number, bit: number): boolean {
  return Math.floor(value / bit) % 2 === 1;
}

function bitsSet(value: number): number {
  let count = 0;
  for (let rest = value; rest > 0; rest = Math.floor(rest / 2)) count += rest % 2;
  return count;
}
