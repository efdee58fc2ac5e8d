// The campaign flow the way users run it: the built mlso-dl as child processes, --json through a real pipe.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
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

describe('mlso-dl campaign, out of process', () => {
  it('creates, adds, syncs, verifies, finds damage, re-syncs exactly that, and exports', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const folder = path.join(await temporaryFolder(), 'eclipse');
    const created = await mlsoDl(
      state,
      'campaign',
      'create',
      '2024 eclipse',
      '-i',
      'kcor',
      '-p',
      'pb',
      ...DAY,
      '--output-dir',
      folder,
      '--layout',
      '{instrument}/{yyyy}/{mm}/{dd}',
    );
    expect(created).toMatchObject({ status: 0 });
    expect(created.stderr).toContain('Created campaign "2024 eclipse"');
    expect(await mlsoDl(state, 'campaign', 'add', '2024 eclipse', '-i', 'ucomp', '-p', 'l2', ...DAY, '--wave-region', '1074')).toMatchObject({ status: 0 });

    const sync = await runPiped(['--base-url', emulator().url, 'campaign', 'sync', '2024 eclipse', '-u', DEMO_EMAIL, '--json', '--state-dir', state], 'cat');
    expect(sync.statuses).toEqual([0, 0]);
    const report = JSON.parse(sync.output.toString());
    expect(report.queries).toHaveLength(2);
    const total = report.total.listed;
    expect(total).toBeGreaterThan(4);
    expect(report.total).toMatchObject({ new: total, onDisk: total, queued: 0, failed: 0, missing: 0 });

    const listed = await runPiped(['campaign', 'list', '--json', '--state-dir', state], 'cat');
    expect(JSON.parse(listed.output.toString())).toMatchObject([{ name: '2024 eclipse', folder, counts: { files: total, onDisk: total, missing: 0 } }]);

    const again = JSON.parse((await mlsoDl(state, 'campaign', 'sync', '2024 eclipse', '-u', DEMO_EMAIL, '--json')).stdout);
    expect(again.total).toMatchObject({ new: 0, onDisk: total, queued: 0 });
    expect(emulator().stats().downloadsStarted).toBe(total);

    const clean = await mlsoDl(state, 'campaign', 'verify', '2024 eclipse', '--json');
    expect(clean.status).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ onDisk: total, missing: 0, changed: 0, unexpected: 0, failed: 0 });

    const files = JSON.parse((await mlsoDl(state, 'campaign', 'export', '2024 eclipse', '--format', 'json', '--out', '-')).stdout).files as {
      local_path: string;
      filename: string;
      size_on_disk: number;
    }[];
    const [changed, gone] = [files[0]!, files[1]!];
    await writeFile(changed.local_path, Buffer.alloc(changed.size_on_disk, 0x41));
    await rm(gone.local_path);
    const damaged = await mlsoDl(state, 'campaign', 'verify', '2024 eclipse', '--json');
    expect(damaged.status).toBe(1);
    expect(JSON.parse(damaged.stdout)).toMatchObject({ onDisk: total - 2, missing: 1, changed: 1, unexpected: 0, failed: 0 });

    emulator().resetStats();
    expect((await mlsoDl(state, 'campaign', 'sync', '2024 eclipse', '-u', DEMO_EMAIL, '--json')).status).toBe(0);
    expect(Object.keys(emulator().stats().downloadsByFile).sort()).toEqual([changed.filename, gone.filename].sort());
    expect((await mlsoDl(state, 'campaign', 'verify', '2024 eclipse')).status).toBe(0);

    const csvFile = path.join(await temporaryFolder(), 'manifest.csv');
    const exported = await mlsoDl(state, 'campaign', 'export', '2024 eclipse', '--format', 'csv', '--out', csvFile);
    expect(exported.status).toBe(0);
    expect(exported.stdout).toMatch(/COSMO K-Coronagraph \(KCor\), doi:10\.5065\/D69G5JV8/);
    expect(exported.stdout).toMatch(/Upgraded Coronal Multi-Polarimeter \(UCoMP\), doi:10\.26024\/g8p7-wy42/);
    const csv = (await readFile(csvFile, 'utf8')).trimEnd().split('\r\n');
    expect(csv[0]).toBe('date_obs,instrument,product,filename,wave_region,obs_plan,url,local_path,size_on_disk,sha256,downloaded_at');
    expect(csv).toHaveLength(total + 1);
  });

  it('shares a campaign: the import syncs to the same files, fetching only what the folder lacks or holds differently', { timeout: 60_000 }, async () => {
    const state = await temporaryFolder();
    const original = path.join(await temporaryFolder(), 'original');
    await mlsoDl(state, 'campaign', 'create', 'season', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', original, '--layout', '{yyyy}{mm}{dd}');
    await mlsoDl(state, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL);
    const shared = path.join(await temporaryFolder(), 'season.campaign.json');
    expect((await mlsoDl(state, 'campaign', 'export', 'season', '--format', 'campaign', '--with-files', '--out', shared)).status).toBe(0);
    const sharedFiles = JSON.parse(await readFile(shared, 'utf8')).files as { path: string; filename: string; sha256: string }[];

    // A colleague's machine: another ledger, a folder holding one identical file and one that differs.
    const theirs = await temporaryFolder();
    const copy = path.join(await temporaryFolder(), 'copy');
    const imported = await mlsoDl(theirs, 'campaign', 'import', shared, '--output-dir', copy, '--json');
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ name: 'season', folder: copy, layout: '{yyyy}{mm}{dd}', counts: { files: sharedFiles.length } });
    const [same, differs] = [sharedFiles[0]!, sharedFiles[1]!];
    await mkdir(path.join(copy, '20250324'), { recursive: true });
    await copyFile(path.join(original, same.path), path.join(copy, same.path));
    await copyFile(path.join(original, same.path), path.join(copy, differs.path));
    emulator().resetStats();
    expect((await mlsoDl(theirs, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL)).status).toBe(0);
    const fetched = Object.keys(emulator().stats().downloadsByFile);
    expect(fetched).not.toContain(same.filename);
    expect(fetched).toContain(differs.filename);
    expect(fetched).toHaveLength(sharedFiles.length - 1);
    const theirsList = JSON.parse((await mlsoDl(theirs, 'campaign', 'export', 'season', '--format', 'json', '--out', '-')).stdout).files as {
      filename: string;
      sha256: string;
    }[];
    expect(Object.fromEntries(theirsList.map((f) => [f.filename, f.sha256]))).toEqual(Object.fromEntries(sharedFiles.map((f) => [f.filename, f.sha256])));
  });

  it('refuses bad input with one clear line and status 2', async () => {
    const state = await temporaryFolder();
    const folder = await temporaryFolder();
    const cases: [string[], RegExp][] = [
      [['campaign', 'show', 'nothing'], /^mlso-dl: There is no campaign called "nothing": there are no campaigns yet/],
      [
        ['campaign', 'create', 'x', '-i', 'kcor', '-p', 'pb', '--wave-region', '1074', '--output-dir', folder],
        /^mlso-dl: pB \(kcor pb\) does not accept the wave-region filter; it accepts/,
      ],
      [
        ['campaign', 'create', 'x', '-i', 'kcor', '-p', 'pb', '--output-dir', folder, '--layout', '{instrument}/../../etc'],
        /^mlso-dl: The folder layout "\{instrument\}\/\.\.\/\.\.\/etc" goes up/,
      ],
      [['campaign', 'create', 'x', '-i', 'kcor', '-p', 'pb', '--output-dir', folder, '--layout', '/abs/{yyyy}'], /is an absolute path/],
      [['campaign', 'create', 'x', '-i', 'kcor', '-p', 'pb', '--output-dir', folder, '--layout', '{year}'], /unknown placeholder \{year\}/],
      [['campaign', 'import', path.join(folder, 'missing.json')], /^mlso-dl: Cannot read the campaign file/],
    ];
    for (const [args, message] of cases) {
      const run = await mlsoDl(state, ...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(run.stderr, args.join(' ')).toMatch(message);
    }
  });
});
