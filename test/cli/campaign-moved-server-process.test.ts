// A campaign whose server moved still completes (issue 29, item 2): synced against one address, then against another
// (`--base-url` changed, as when the service moves to https or to a mirror), the campaign flow holds: a file to fetch
// again is fetched from the server the campaign syncs against now, without asking to allow other servers; verify,
// export and a colleague's import of that export all name the new server. What a server lists on a genuinely other
// host is still refused. For a windowed query (listed a calendar month at a time, settled months not listed again) and
// a query with `--every` (listed whole at every sync). The built mlso-dl against two emulators of the same archive.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, createEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { otherServer, type OtherServer } from '../helpers/other-server';

interface QueryKind {
  kind: string;
  archive: Partial<EmulatorOptions>;
  query: string[];
}

const KINDS: QueryKind[] = [
  {
    // Two long-settled month windows: a sync lists one again only when a file of it must be fetched.
    kind: 'a windowed query',
    archive: { imageSize: 32, lastDay: '2025-03-01', days: 2, cadenceSeconds: 3600, zeroFilesizeRate: 0 },
    query: ['-s', '2025-02-28', '-e', '2025-03-01T23:59:59'],
  },
  {
    kind: 'a query with --every',
    archive: { imageSize: 32, lastDay: '2025-03-24', days: 1, cadenceSeconds: 900, zeroFilesizeRate: 0 },
    query: ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '1hour'],
  },
];

const NAME = 'moved';

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await stopBuiltCli();
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function emulatorOf(archive: Partial<EmulatorOptions>): Promise<RunningEmulator> {
  const emulator = await createEmulator(archive);
  started.push(emulator);
  return emulator;
}

const mlsoDl = (server: RunningEmulator, state: string, ...args: string[]) => runBuiltCli(['--base-url', server.url, ...args, '--state-dir', state]);

interface ManifestFile {
  local_path: string;
  filename: string;
  url: string;
}

async function manifest(server: RunningEmulator, state: string): Promise<ManifestFile[]> {
  const exported = await mlsoDl(server, state, 'campaign', 'export', NAME, '--format', 'json', '--out', '-');
  expect(exported.status, exported.stderr).toBe(0);
  return (JSON.parse(exported.stdout) as { files: ManifestFile[] }).files;
}

/** The URL column of the CSV manifest (no field of these files holds a comma or a quote). */
async function csvAddresses(server: RunningEmulator, state: string): Promise<string[]> {
  const exported = await mlsoDl(server, state, 'campaign', 'export', NAME, '--format', 'csv', '--out', '-');
  expect(exported.status, exported.stderr).toBe(0);
  const [header, ...rows] = exported.stdout.trimEnd().split('\r\n');
  const column = header!.split(',').indexOf('url');
  return rows.map((row) => row.split(',')[column]!);
}

/** A campaign of the kind, created and synced against one server, then that server stopped. */
async function syncedThenStopped({ archive, query }: QueryKind): Promise<{ state: string; files: ManifestFile[]; before: RunningEmulator }> {
  const state = await temporaryFolder();
  const folder = path.join(await temporaryFolder(), NAME);
  const before = await emulatorOf(archive);
  expect((await mlsoDl(before, state, 'campaign', 'create', NAME, '-i', 'kcor', '-p', 'pb', ...query, '--output-dir', folder)).status).toBe(0);
  const first = await mlsoDl(before, state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL, '--json');
  expect(first.status, first.stderr).toBe(0);
  const files = await manifest(before, state);
  expect(files.length).toBeGreaterThanOrEqual(5);
  await before.close();
  return { state, files, before };
}

const onServer = (server: RunningEmulator) => (url: string) => url.startsWith(`${server.url}/v1/download?`);

describe.each(KINDS)('mlso-dl campaign flow after its server moved, for $kind', (kind) => {
  it('verifies, fetches from the new server, verifies clean, and exports and shares the new server’s addresses', { timeout: 120_000 }, async () => {
    const { state, files, before } = await syncedThenStopped(kind);
    const after = await emulatorOf(kind.archive);
    expect(after.url).not.toBe(before.url);

    // Right after the move, before any sync: the campaign's own addresses are the new server's.
    expect((await manifest(after, state)).map((file) => file.url).filter((url) => !onServer(after)(url))).toEqual([]);

    // The last file (a windowed query's second month), so that the first month's window is not listed again.
    const [gone, damaged] = [files.at(-1)!, files.at(-2)!];
    await rm(gone.local_path);
    const bytes = await readFile(damaged.local_path);
    await writeFile(
      damaged.local_path,
      bytes.map((byte) => byte ^ 0xff),
    );

    const found = await mlsoDl(after, state, 'campaign', 'verify', NAME, '--json');
    expect(JSON.parse(found.stdout)).toMatchObject({ files: files.length, onDisk: files.length - 2, missing: 1, changed: 1 });
    expect(after.stats().downloadsStarted).toBe(0);

    const again = await mlsoDl(after, state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(again.stderr).not.toContain('refused');
    expect(again.stderr).toContain(`Synced "${NAME}": 2 downloaded, ${files.length - 2} already there, 0 failed`);
    expect(again.status, again.stderr).toBe(0);
    expect(Object.keys(after.stats().downloadsByFile).sort()).toEqual([gone.filename, damaged.filename].sort());

    const clean = await mlsoDl(after, state, 'campaign', 'verify', NAME, '--json');
    expect(clean.status, clean.stderr).toBe(0);
    expect(JSON.parse(clean.stdout)).toMatchObject({ files: files.length, onDisk: files.length, missing: 0, changed: 0, problems: [] });

    // Every export names the new server: the manifests and the campaign file with its file list.
    const exportedAfter = await manifest(after, state);
    expect(exportedAfter.map((file) => file.url).filter((url) => !onServer(after)(url))).toEqual([]);
    expect((await csvAddresses(after, state)).filter((url) => !onServer(after)(url))).toEqual([]);
    const shared = path.join(await temporaryFolder(), `${NAME}.campaign.json`);
    expect((await mlsoDl(after, state, 'campaign', 'export', NAME, '--format', 'campaign', '--with-files', '--out', shared)).status).toBe(0);
    const sharedFiles = (JSON.parse(await readFile(shared, 'utf8')) as { files: { url: string }[] }).files;
    expect(sharedFiles).toHaveLength(files.length);
    expect(sharedFiles.map((file) => file.url).filter((url) => !onServer(after)(url))).toEqual([]);

    // A colleague takes the shared file into a state folder of their own and syncs against the new server.
    const theirs = await temporaryFolder();
    const copy = path.join(await temporaryFolder(), 'copy');
    expect((await mlsoDl(after, theirs, 'campaign', 'import', shared, '--output-dir', copy)).status).toBe(0);
    after.resetStats();
    const theirSync = await mlsoDl(after, theirs, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    expect(theirSync.stderr).not.toContain('refused');
    expect(theirSync.stderr).toContain(`Synced "${NAME}": ${files.length} downloaded, 0 already there, 0 failed`);
    expect(theirSync.status, theirSync.stderr).toBe(0);
  });

  it('fetches a file to fetch again from the new server, and refuses only what a server lists elsewhere', { timeout: 60_000 }, async () => {
    const { state, files, before } = await syncedThenStopped(kind);
    const after = await emulatorOf(kind.archive);
    const elsewhere: OtherServer = await otherServer(() => after, 'another port');
    started.push(elsewhere);
    const [moved, foreign, unlisted] = [files.at(-1)!, files.at(-2)!, files.at(-3)!];
    for (const file of [moved, foreign, unlisted]) await rm(file.local_path);
    // The new server lists one file on another host, and no longer lists another.
    after.transformListing = (listing) => {
      const entries = listing['files'] as { filename: string; url: string }[];
      return {
        ...listing,
        files: entries
          .filter((entry) => entry.filename !== unlisted.filename)
          .map((entry) => (entry.filename === foreign.filename ? { ...entry, url: `${elsewhere.url}/v1/download?filename=${entry.filename}` } : entry)),
      };
    };

    const again = await mlsoDl(after, state, 'campaign', 'sync', NAME, '-u', DEMO_EMAIL);
    // Two files are not fetched (refused), so the sync does not end clean.
    expect(again.status).toBe(1);
    expect(Object.keys(after.stats().downloadsByFile)).toEqual([moved.filename]);
    expect(elsewhere.requests).toEqual([]);
    expect(again.stderr).toContain(`Synced "${NAME}": 1 downloaded, ${files.length - 3} already there, 0 failed, 2 missing.`);
    const refusals = again.stderr.split('\n').filter((line) => line.startsWith('refused: '));
    expect(refusals).toHaveLength(2);
    // The listed address on another host: refused as before, with the way to allow it.
    expect(refusals.find((line) => line.startsWith(`refused: ${foreign.filename}: `))).toContain('--allow-other-hosts');
    // The campaign's own file the new server does not list: said so, and never "allow other hosts".
    const unlistedLine = refusals.find((line) => line.startsWith(`refused: ${unlisted.filename}: `));
    expect(unlistedLine).toBe(
      `refused: ${unlisted.filename}: its address is on ${new URL(before.url).host}, where this campaign was synced from before, and ${new URL(after.url).host} does not list it now`,
    );
  });
});
