// Sharing campaigns the way users do it, through the built mlso-dl and real pipes, with no server: exports that are
// data (byte for byte through a pipe), export targets that cannot be written, imports of big, odd and interrupted files.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { waitFor } from '../helpers/wait-for';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { temporaryFolder } from '../helpers/fixtures';

afterEach(stopBuiltCli);

// Nothing here asks the server: a closed port makes any request fail at once.
const mlsoDl = (stateDir: string, ...args: string[]) => runBuiltCli(['--base-url', 'http://127.0.0.1:9', ...args, '--state-dir', stateDir]);

const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } };

function entry(index: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const filename = `20250324_${String(index).padStart(7, '0')}_kcor_l2_pb.fts.gz`;
  return {
    path: filename,
    filename,
    url: `https://api.example.org/download/kcor/${filename}`,
    instrument: 'kcor',
    product: 'pb',
    'date-obs': '2025-03-24T21:03:04',
    'wave-region': '735',
    'obs-plan': null,
    filesize: 4_123_456,
    sha256: index.toString(16).padStart(64, '0'),
    ...extra,
  };
}

const header = (name: string, members: Record<string, unknown> = {}) => ({
  format: 'mlso-downloader-campaign',
  version: 1,
  name,
  layout: '',
  autoSyncHours: null,
  queries: [QUERY],
  ...members,
});

async function campaignFile(name: string, files: unknown[], members: Record<string, unknown> = {}): Promise<string> {
  const file = path.join(await temporaryFolder(), `${name}.campaign.json`);
  await writeFile(file, JSON.stringify({ ...header(name, members), files }, null, 2));
  return file;
}

/** A campaign file of `count` files, written a line at a time (some 400 bytes each). */
async function largeCampaignFile(name: string, count: number): Promise<string> {
  const file = path.join(await temporaryFolder(), `${name}.campaign.json`);
  const out = createWriteStream(file);
  out.write(`${JSON.stringify(header(name)).slice(0, -1)}, "files": [\n`);
  for (let index = 0; index < count; index += 1) {
    if (!out.write(`${JSON.stringify(entry(index))}${index < count - 1 ? ',' : ''}\n`)) await once(out, 'drain');
  }
  out.end(']}\n');
  await once(out, 'close');
  return file;
}

describe('campaign export, out of process', () => {
  it('writes the CSV to a pipe byte for byte: CRLF line ends, tabs and bidi characters kept, formulas neutralised', { timeout: 30_000 }, async () => {
    const state = await temporaryFolder();
    const shared = await campaignFile('odd', [entry(1, { 'obs-plan': 'plan\twith tab \u202eevil' }), entry(2, { filename: '=1+2.fts', path: '=1+2.fts' })]);
    expect((await mlsoDl(state, 'campaign', 'import', shared, '--output-dir', path.join(state, 'odd'))).status).toBe(0);

    const toFile = path.join(await temporaryFolder(), 'manifest.csv');
    expect((await mlsoDl(state, 'campaign', 'export', 'odd', '--format', 'csv', '--out', toFile)).status).toBe(0);
    const piped = await runPiped(
      ['--base-url', 'http://127.0.0.1:9', 'campaign', 'export', 'odd', '--format', 'csv', '--out', '-', '--state-dir', state],
      'cat',
    );
    expect(piped.statuses).toEqual([0, 0]);
    const bytes = await readFile(toFile);
    expect(piped.output.equals(bytes)).toBe(true);
    const csv = piped.output.toString();
    expect(csv).toContain('\r\n');
    expect(csv).toContain('plan\twith tab \u202eevil');
    expect(csv).toContain(",'=1+2.fts,");
    expect(csv).not.toContain('\\u000d');
  });

  it('says in one line, status 2, why --out cannot be written: no such folder, a folder, a full device', { timeout: 30_000 }, async () => {
    const state = await temporaryFolder();
    expect((await mlsoDl(state, 'campaign', 'import', await campaignFile('small', [entry(1)]), '--output-dir', path.join(state, 'small'))).status).toBe(0);
    const folder = await temporaryFolder();
    const cases: [string, RegExp][] = [
      [path.join(folder, 'missing', 'manifest.csv'), /^mlso-dl: Cannot write .*manifest\.csv: its folder does not exist\.$/],
      [folder, /^mlso-dl: Cannot write .*: it is a folder, not a file\.$/],
      ['/dev/full', /^mlso-dl: Cannot write \/dev\/full: the disk is full\.$/],
    ];
    for (const [out, message] of cases) {
      const run = await mlsoDl(state, 'campaign', 'export', 'small', '--format', 'csv', '--out', out);
      expect(run.status, out).toBe(2);
      expect(run.stderr.trim().split('\n'), out).toHaveLength(1);
      expect(run.stderr.trim(), out).toMatch(message);
    }
    expect((await stat('/dev/full')).isCharacterDevice()).toBe(true);
  });
});

describe('campaign import, out of process', () => {
  it('accepts a file that starts with a UTF-8 byte order mark, and never turns auto-sync on', { timeout: 30_000 }, async () => {
    const state = await temporaryFolder();
    const file = await campaignFile('bom', [entry(1), entry(2)], { autoSyncHours: 1 });
    await writeFile(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(file)]));
    const run = await mlsoDl(state, 'campaign', 'import', file, '--output-dir', path.join(state, 'bom'), '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'bom', autoSyncHours: null, counts: { files: 2 } });
    const told = await mlsoDl(state, 'campaign', 'import', file, '--output-dir', path.join(state, 'told'), '--name', 'told');
    expect(told.stderr).toContain('The file asks for an automatic sync every 1 h; an imported campaign starts without one (turn it on in the app).');
  });

  it('refuses a file over the size cap saying the cap, not as unreadable', { timeout: 30_000 }, async () => {
    const state = await temporaryFolder();
    const file = await campaignFile('huge', [entry(1)]);
    // Sparse: over the cap without writing a gigabyte.
    await truncate(file, 1024 ** 3 + 1);
    const run = await mlsoDl(state, 'campaign', 'import', file);
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toMatch(
      /^mlso-dl: The campaign file is larger than 1 GiB, the most this version takes in \(.*\): split it into smaller campaigns\.$/,
    );
  });

  it('refuses a second campaign whose name is the same name in another case', { timeout: 30_000 }, async () => {
    const state = await temporaryFolder();
    expect((await mlsoDl(state, 'campaign', 'import', await campaignFile('Été', [entry(1)]), '--output-dir', path.join(state, 'a'))).status).toBe(0);
    const second = await mlsoDl(state, 'campaign', 'import', await campaignFile('été', [entry(1)]), '--output-dir', path.join(state, 'b'));
    expect(second.status).toBe(2);
    expect(second.stderr.trim()).toBe('mlso-dl: A campaign called "Été" already exists: choose another name.');
  });

  /** Starts importing the file and stops it with `signal` once files are being written into the ledger; its exit. */
  async function interruptedImport(state: string, file: string, signal: NodeJS.Signals): Promise<number | string> {
    const args = [bin, '--base-url', 'http://127.0.0.1:9', 'campaign', 'import', file, '--output-dir', path.join(state, 'large'), '--state-dir', state];
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    const exited = new Promise<number | string>((resolve) => child.once('close', (status, stopped) => resolve(status ?? stopped ?? 'unknown')));
    const wal = path.join(state, `${LEDGER_FILE}-wal`);
    // The ledger's write-ahead log has grown well past a fresh ledger's.
    await waitFor(async () => ((await stat(wal).catch(() => undefined))?.size ?? 0) > 4 * 1024 * 1024, 'the import to be writing', 60_000);
    child.kill(signal);
    return exited;
  }

  it('killed halfway through a large file, leaves no campaign behind, and the same import then takes it whole', { timeout: 120_000 }, async () => {
    const state = await temporaryFolder();
    const count = 100_000;
    const file = await largeCampaignFile('large', count);
    expect(await interruptedImport(state, file, 'SIGKILL')).toBe('SIGKILL');

    const listed = await mlsoDl(state, 'campaign', 'list', '--json');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([]);
    const again = await mlsoDl(state, 'campaign', 'import', file, '--output-dir', path.join(state, 'large'), '--json');
    expect(again.status).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ name: 'large', counts: { files: count } });
  });

  it('stopped with Ctrl-C halfway through, takes back what it wrote and exits 130', { timeout: 120_000 }, async () => {
    const state = await temporaryFolder();
    const file = await largeCampaignFile('large', 100_000);
    expect(await interruptedImport(state, file, 'SIGINT')).toBe(130);
    expect(JSON.parse((await mlsoDl(state, 'campaign', 'list', '--json')).stdout)).toEqual([]);
  });
});
