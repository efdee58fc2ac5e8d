// A download queue of a million jobs written straight into a ledger (insertMany, in pieces), for the Downloads
// screen's benchmark: most done, a big queue still waiting, some paused and failed, a few moving, in a few folders
// (one a campaign's, with a folder per month under it), the way a first sync of a two-year campaign leaves it. The
// failed files carry their reason and one queued file in 40 a failed first attempt: rows of two lines on the screen.
import path from 'node:path';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import type { DownloadLedger, NewJob } from '../../src-main/core/downloads/download-ledger';
import type { StateDatabase } from '../../src-main/core/state/state-database';
import type { JobState } from '../../src-shared/downloads/job-state';

/** How the jobs are spread over the states, as shares of the whole (the rest are queued). */
const SHARES: readonly [JobState, number][] = [
  ['done', 0.6],
  ['failed', 0.001],
  ['paused', 0.002],
  ['cancelled', 0.0005],
];
const PIECE = 50_000;
const CADENCE_MS = 15_000;
const START = Date.parse('2024-01-01T00:00:00Z');

/** The folders of the queue: a campaign's (nested by month) and two others. */
function millionFolders(root: string): { campaign: string; plain: string[] } {
  return { campaign: path.join(root, 'kcor-mirror'), plain: [path.join(root, 'browse'), path.join(root, 'eclipse')] };
}

function stateOf(index: number, count: number): JobState {
  let edge = 0;
  for (const [state, share] of SHARES) {
    edge += share * count;
    if (index < edge) return state;
  }
  return 'queued';
}

function jobAt(index: number, count: number, root: string): NewJob {
  const { campaign, plain } = millionFolders(root);
  const at = new Date(START + index * CADENCE_MS).toISOString();
  const stamp = at.slice(0, 19).replace(/[-:]/g, '').replace('T', '_');
  const filename = `${stamp}_kcor_l2_pb.fts`;
  // Nine in ten are the campaign's, in a folder per month; the rest are spread over the other two folders.
  const folder = index % 10 === 0 ? plain[index % 20 === 0 ? 0 : 1]! : path.join(campaign, at.slice(0, 4), at.slice(5, 7));
  return {
    url: `http://127.0.0.1:1/v1/download?filename=${filename}.gz`,
    instrument: 'kcor',
    product: 'pb',
    dateObs: at.slice(0, 19),
    filename,
    folder,
    targetPath: path.join(folder, filename),
    expectedSize: 20_000 + (index % 997) * 13,
    batchId: null,
    state: stateOf(index, count),
  };
}

/** Writes `count` jobs into the ledger in pieces of 50,000 (each one transaction), in a few seconds for a million. */
export function fillLedger(ledger: DownloadLedger, count: number, root: string): void {
  for (let start = 0; start < count; start += PIECE) {
    const piece: NewJob[] = [];
    for (let index = start; index < Math.min(count, start + PIECE); index++) piece.push(jobAt(index, count, root));
    ledger.insertMany(piece);
  }
}

const REASON = 'The server closed the connection before the file was complete.';

/**
 * Gives the failed jobs their reason and one queued job in 40 a failed first attempt (its reason, attempt 2), as a
 * long run leaves them: the Downloads screen shows these rows with a second line, so the bench scrolls past some.
 */
export function markRetries(state: StateDatabase): void {
  state.connection.prepare(`UPDATE jobs SET attempts = 4, last_error = ? WHERE state = 'failed'`).run(REASON);
  state.connection.prepare(`UPDATE jobs SET attempts = 2, last_error = ? WHERE state = 'queued' AND id % 40 = 0`).run(REASON);
}

/**
 * Makes the jobs of the campaign's folder (nine in ten, `fillLedger`) a campaign's files, synced: a card over some
 * 900,000 files, for how long the Campaigns screen takes to show it. Written straight in, as the jobs are.
 */
export function fillCampaign(state: StateDatabase, root: string): { name: string; files: number } {
  const { campaign: folder } = millionFolders(root);
  const name = 'KCor mirror';
  const store = new CampaignStore(state);
  const { id } = store.create({ name, folder, layout: '{yyyy}/{mm}', autoSyncHours: null, queries: [{ instrument: 'kcor', product: 'pb', filters: {} }] });
  // Counted once for the lot, as a sync's pieces are (StateDatabase.insertingMany), not row by row.
  const files = state.insertingMany(
    'campaign_files',
    () =>
      state.connection
        .prepare(
          `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, date_obs, filesize, first_seen_at)
         SELECT ?, substr(target_path, length(?) + 2), target_path, filename, url, instrument, product, date_obs, expected_size, created_at
         FROM jobs WHERE substr(folder, 1, length(?) + 1) = ? || '/'`,
        )
        .run(id, folder, folder, folder).changes,
  );
  // As a sync's record leaves it: counted from its start (every file was there before).
  const at = new Date().toISOString();
  state.connection.prepare('UPDATE campaigns SET last_sync_at = ?, counted_since = ? WHERE id = ?').run(at, at, id);
  return { name, files };
}
