// Campaign sync integrity through the built mlso-dl: a file the listing moves to another layout folder, a shared
// file list whose SHA-256 the archive's files do not match, and one file whose path would be too long.
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const DAY = ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '2hours'];

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

async function sync(stateDir: string, name: string) {
  const run = await mlsoDl(stateDir, 'campaign', 'sync', name, '-u', DEMO_EMAIL, '--json');
  // No JSON when the sync itself failed: the report is then its message, for the failure to show.
  return { ...run, report: run.stdout ? JSON.parse(run.stdout) : { failed: run.stderr } };
}

type Listing = { files: Record<string, unknown>[] };

/** Every later listing says something else of the file called `filename`. */
function changeListedFile(filename: string, change: Record<string, unknown>): void {
  emulator().transformListing = (listing) => ({
    ...listing,
    files: (listing as Listing).files.map((file) => (file['filename'] === filename ? { ...file, ...change } : file)),
  });
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

/** A day of KCor synced as campaign "season" (laid out by day) and shared with its file list; the file's path. */
async function sharedSeason(): Promise<{ original: string; shared: string }> {
  const state = await temporaryFolder();
  const original = path.join(await temporaryFolder(), 'original');
  await mlsoDl(state, 'campaign', 'create', 'season', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', original, '--layout', '{yyyy}{mm}{dd}');
  expect((await sync(state, 'season')).status).toBe(0);
  const shared = path.join(await temporaryFolder(), 'season.campaign.json');
  await mlsoDl(state, 'campaign', 'export', 'season', '--format', 'campaign', '--with-files', '--out', shared);
  return { original, shared };
}

describe('campaign sync integrity, out of process', () => {
  it('moves a file the server now lists under another obs-plan, says so, and the next syncs and verify are clean', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'plans');
    await mlsoDl(state, 'campaign', 'create', 'plans', '-i', 'ucomp', '-p', 'l2', ...DAY, '--output-dir', folder, '--layout', '{obs_plan}');
    const first = await sync(state, 'plans');
    expect(first.status).toBe(0);
    const total = first.report.total.listed as number;
    const files = JSON.parse((await mlsoDl(state, 'campaign', 'export', 'plans', '--format', 'json', '--out', '-')).stdout).files as {
      filename: string;
      local_path: string;
    }[];
    const victim = files[0]!;

    changeListedFile(victim.filename, { 'obs-plan': 'waves-replanned.cbk' });
    emulator().resetStats();
    const second = await sync(state, 'plans');
    expect(second.stderr).toBe('');
    expect(second.status).toBe(0);
    const from = path.relative(folder, victim.local_path).split(path.sep).join('/');
    expect(second.report.moved).toEqual([{ filename: victim.filename, from, to: `waves-replanned.cbk/${victim.filename}`, movedOnDisk: true }]);
    expect(second.report.total).toMatchObject({ listed: total, onDisk: total, missing: 0, failed: 0 });
    expect(second.report.refused).toEqual([]);
    // Moved within the folder, not fetched again.
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await exists(victim.local_path)).toBe(false);
    expect(await exists(path.join(folder, 'waves-replanned.cbk', victim.filename))).toBe(true);

    const text = await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL);
    expect(text.status).toBe(0);
    expect(text.stderr).not.toMatch(/moved/i);
    const verified = await mlsoDl(state, 'campaign', 'verify', 'plans', '--json');
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: total, missing: 0, changed: 0, unexpected: 0 });
  });

  it('fetches a moved file to its new place when its old copy is gone, and the text report names it', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'plans');
    await mlsoDl(state, 'campaign', 'create', 'plans', '-i', 'ucomp', '-p', 'l2', ...DAY, '--output-dir', folder, '--layout', '{obs_plan}');
    expect((await sync(state, 'plans')).status).toBe(0);
    const files = JSON.parse((await mlsoDl(state, 'campaign', 'export', 'plans', '--format', 'json', '--out', '-')).stdout).files as {
      filename: string;
      local_path: string;
    }[];
    const victim = files[1]!;
    await writeFile(victim.local_path, 'damaged');

    changeListedFile(victim.filename, { 'obs-plan': 'waves-replanned.cbk' });
    emulator().resetStats();
    const second = await mlsoDl(state, 'campaign', 'sync', 'plans', '-u', DEMO_EMAIL);
    expect(second.status).toBe(0);
    expect(second.stderr).toContain('Moved 1 file to a new place in the layout (the archive lists it with other values):\n');
    expect(second.stderr).toContain(
      `moved: ${path.relative(folder, victim.local_path).split(path.sep).join('/')} to waves-replanned.cbk/${victim.filename} (fetched there:`,
    );
    expect(Object.keys(emulator().stats().downloadsByFile)).toEqual([victim.filename]);
    expect(await exists(path.join(folder, 'waves-replanned.cbk', victim.filename))).toBe(true);
  });

  it(
    'moves a file a shared file list placed by another date-obs to where the archive places it, and fetches it there when the folder lacks it',
    { timeout: 60_000 },
    async () => {
      const { original, shared } = await sharedSeason();
      const campaignFile = JSON.parse(await readFile(shared, 'utf8')) as { files: { path: string; filename: string; 'date-obs': string }[] };
      const [early, late] = [campaignFile.files[0]!, campaignFile.files[1]!];
      const places = { early: early.path, late: late.path };
      // The list says they were observed a day earlier than the archive does.
      for (const file of [early, late]) {
        file['date-obs'] = file['date-obs'].replace('2025-03-24', '2025-03-23');
        file.path = `20250323/${file.filename}`;
      }
      await writeFile(shared, JSON.stringify(campaignFile));

      const theirs = await temporaryFolder();
      const copy = path.join(await temporaryFolder(), 'copy');
      expect((await mlsoDl(theirs, 'campaign', 'import', shared, '--output-dir', copy)).status).toBe(0);
      // The colleague's folder holds `early` where the list puts it, and not `late`.
      await mkdir(path.join(copy, '20250323'), { recursive: true });
      await copyFile(path.join(original, places.early), path.join(copy, early.path));
      emulator().resetStats();
      const synced = await sync(theirs, 'season');
      expect(synced.status).toBe(0);
      expect(synced.report.moved).toEqual([
        { filename: early.filename, from: early.path, to: places.early, movedOnDisk: true },
        { filename: late.filename, from: late.path, to: places.late, movedOnDisk: false },
      ]);
      const total = campaignFile.files.length;
      expect(synced.report.total).toMatchObject({ listed: total, onDisk: total, missing: 0, differs: 0 });
      expect(Object.keys(emulator().stats().downloadsByFile)).not.toContain(early.filename);
      expect(Object.keys(emulator().stats().downloadsByFile)).toHaveLength(total - 1);
      expect(await exists(path.join(copy, '20250323'))).toBe(false);
      expect(JSON.parse((await mlsoDl(theirs, 'campaign', 'verify', 'season', '--json')).stdout)).toMatchObject({
        onDisk: total,
        missing: 0,
        unexpected: 0,
        differs: 0,
      });
      const again = await sync(theirs, 'season');
      expect(again.report.moved).toEqual([]);
      expect(again.status).toBe(0);
    },
  );

  it(
    'names the files that differ from the SHA-256 of a shared file list, keeps them apart, and re-exports the shared hashes',
    { timeout: 60_000 },
    async () => {
      const { shared } = await sharedSeason();
      const campaignFile = JSON.parse(await readFile(shared, 'utf8')) as { files: { path: string; filename: string; sha256: string }[] };
      const wrong = ['0'.repeat(64), 'f'.repeat(64)];
      const [bad1, bad2] = [campaignFile.files[0]!, campaignFile.files[2]!];
      bad1.sha256 = wrong[0]!;
      bad2.sha256 = wrong[1]!;
      await writeFile(shared, JSON.stringify(campaignFile));
      const total = campaignFile.files.length;

      const theirs = await temporaryFolder();
      const copy = path.join(await temporaryFolder(), 'copy');
      expect((await mlsoDl(theirs, 'campaign', 'import', shared, '--output-dir', copy)).status).toBe(0);
      const synced = await sync(theirs, 'season');
      expect(synced.status).toBe(1);
      expect(synced.report.total).toMatchObject({ onDisk: total - 2, differs: 2, missing: 0, failed: 0 });
      expect(synced.report.differing.map((file: { path: string }) => file.path).sort()).toEqual([bad1.path, bad2.path].sort());
      expect(synced.report.differing.find((file: { path: string }) => file.path === bad1.path)).toMatchObject({
        filename: bad1.filename,
        expectedSha256: wrong[0],
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      });

      const listed = await runPiped(['campaign', 'list', '--json', '--state-dir', theirs], 'cat');
      expect(JSON.parse(listed.output.toString())[0].counts).toMatchObject({ files: total, onDisk: total - 2, differs: 2, missing: 0 });
      expect((await mlsoDl(theirs, 'campaign', 'show', 'season')).stdout).toContain(
        `Files      : ${total} (${total - 2} on disk, 2 differ from the shared file list, 0 queued, 0 failed, 0 missing)`,
      );

      const textSync = await mlsoDl(theirs, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL);
      expect(textSync.status).toBe(1);
      expect(textSync.stderr).toContain(`differs: ${bad1.path}:`);
      expect(textSync.stderr).toContain(`differs: ${bad2.path}:`);
      // The tables count them in a column of their own, so each row adds up to what was listed.
      // (On disk is split into Downloaded, by this sync, and Already there.)
      expect(textSync.stdout).toMatch(/^Query +Listed +New +Downloaded +Already there +Differs +Queued +Failed +Missing$/m);
      expect(textSync.stdout).toMatch(new RegExp(`^Total +${total} +0 +0 +${total - 2} +2 +0 +0 +0$`, 'm'));
      const table = await mlsoDl(theirs, 'campaign', 'list');
      expect(table.stdout).toMatch(new RegExp(`^season +${total} +${total - 2} +2 +0 +0 +0 `, 'm'));

      const verified = await mlsoDl(theirs, 'campaign', 'verify', 'season');
      expect(verified.status).toBe(1);
      expect(verified.stdout).toMatch(new RegExp(`^differs +${bad1.path}$`, 'm'));
      expect(verified.stderr).toMatch(
        new RegExp(`^${total - 2} on disk and intact, 0 missing, 0 changed, 0 unexpected, 0 failed, 2 differ from the shared file list\\.`, 'm'),
      );
      const verifiedJson = JSON.parse((await mlsoDl(theirs, 'campaign', 'verify', 'season', '--json')).stdout);
      expect(verifiedJson).toMatchObject({ onDisk: total - 2, differs: 2 });

      const again = path.join(await temporaryFolder(), 'again.campaign.json');
      await mlsoDl(theirs, 'campaign', 'export', 'season', '--format', 'campaign', '--with-files', '--out', again);
      const reexported = JSON.parse(await readFile(again, 'utf8')) as { files: { filename: string; sha256: string }[] };
      expect(Object.fromEntries(reexported.files.map((file) => [file.filename, file.sha256]))).toEqual(
        Object.fromEntries(campaignFile.files.map((file) => [file.filename, file.sha256])),
      );
    },
  );

  it('refuses with its reason the one file whose path would be too long, and downloads the others', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'deep');
    // 34 folders of up to 120 bytes each: past 4,096 bytes for a file whose obs-plan is long, short for the others.
    const layout = Array.from({ length: 34 }, () => '{obs_plan}').join('/');
    await mlsoDl(state, 'campaign', 'create', 'deep', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', folder, '--layout', layout);
    const listing = JSON.parse((await mlsoDl(state, 'files', '-i', 'kcor', '-p', 'pb', ...DAY, '--json')).stdout) as
      { files: { filename: string }[] } | { filename: string }[];
    const names = (Array.isArray(listing) ? listing : listing.files).map((file) => file.filename);
    expect(names.length).toBeGreaterThan(2);
    const long = names[1]!;
    changeListedFile(long, { 'obs-plan': 'p'.repeat(150) });

    const run = await sync(state, 'deep');
    expect(run.stderr).not.toMatch(/unexpected problem/i);
    expect(run.status).toBe(1);
    expect(run.report.refused).toEqual([
      { filename: long, reason: expect.stringMatching(/^its path would be [\d,]+ bytes, more than the system allows \([\d,]+\)/) },
    ]);
    expect(run.report.total).toMatchObject({ listed: names.length, onDisk: names.length - 1, missing: 1 });
    expect(emulator().stats().downloadsCompleted).toBe(names.length - 1);

    // Verify names it refused, with the reason: syncing again would not fetch it. Its counts are the sync's (and the
    // card's): the file is one of the missing, and refused says sync will not fetch it.
    const verified = await mlsoDl(state, 'campaign', 'verify', 'deep', '--json');
    expect(verified.status).toBe(1);
    const reason = run.report.refused[0].reason as string;
    expect(JSON.parse(verified.stdout)).toMatchObject({ onDisk: names.length - 1, missing: 1, refused: 1, problems: [{ problem: 'refused', reason }] });
    const text = await mlsoDl(state, 'campaign', 'verify', 'deep');
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`^refused +\\S+/${long} \\(its path would be`));
    expect(text.stderr).toMatch(/1 missing \(1 of them refused by sync\), 0 changed/);
  });
});
