// A ledger that loses campaigns (damaged and set aside, or another state folder's copied over it) takes them back
// from the copies beside it, through the built mlso-dl: with an imported campaign's shared file list, so that verify
// and export say after the rebuild what they said before it.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { CAMPAIGN_BACKUP_FOLDER } from '../../src-main/core/campaigns/campaign-backups';
import { LEDGER_FILE } from '../../src-main/core/state/open-state-folder';
import { garbleHeader } from '../core/downloads/ledger-damage';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
afterEach(stopBuiltCli);

const DAY = ['-s', '2025-03-24', '-e', '2025-03-24T23:59:59', '--every', '2hours'];

async function mlsoDl(stateDir: string, ...args: string[]) {
  return runBuiltCli(['--base-url', emulator().url, ...args, '--state-dir', stateDir]);
}

type SharedList = { files: { path: string; filename: string; sha256: string }[] };

/** A day of KCor synced and exported with its file list, two of whose SHA-256 are not the archive's. */
async function sharedListWithTwoWrong(): Promise<{ file: string; list: SharedList }> {
  const state = await temporaryFolder();
  const original = path.join(await temporaryFolder(), 'original');
  await mlsoDl(state, 'campaign', 'create', 'season', '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', original, '--layout', '{yyyy}{mm}{dd}');
  expect((await mlsoDl(state, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL)).status).toBe(0);
  const file = path.join(await temporaryFolder(), 'season.campaign.json');
  await mlsoDl(state, 'campaign', 'export', 'season', '--format', 'campaign', '--with-files', '--out', file);
  const list = JSON.parse(await readFile(file, 'utf8')) as SharedList;
  list.files[0]!.sha256 = '0'.repeat(64);
  list.files[2]!.sha256 = 'f'.repeat(64);
  await writeFile(file, JSON.stringify(list));
  return { file, list };
}

/** What verify and export say of the campaign: the counts and problems, and each file's SHA-256 as exported. */
async function whatIsSaid(state: string) {
  const verified = await mlsoDl(state, 'campaign', 'verify', 'season', '--json');
  const { onDisk, differs, missing, changed, unexpected, problems } = JSON.parse(verified.stdout) as Record<string, unknown>;
  const exported = JSON.parse((await mlsoDl(state, 'campaign', 'export', 'season', '--format', 'campaign', '--with-files', '--out', '-')).stdout) as SharedList;
  return {
    status: verified.status,
    verify: { onDisk, differs, missing, changed, unexpected, problems },
    hashes: Object.fromEntries(exported.files.map((file) => [file.filename, file.sha256])),
  };
}

describe('a rebuilt ledger, out of process', () => {
  it('keeps the SHA-256 of an imported shared file list: verify and export say what they said before', { timeout: 60_000 }, async () => {
    const { file, list } = await sharedListWithTwoWrong();
    const state = await temporaryFolder();
    expect((await mlsoDl(state, 'campaign', 'import', file, '--output-dir', path.join(await temporaryFolder(), 'copy'))).status).toBe(0);
    expect((await mlsoDl(state, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL)).status).toBe(1);
    const before = await whatIsSaid(state);
    expect(before).toMatchObject({ status: 1, verify: { onDisk: list.files.length - 2, differs: 2 } });
    expect(before.hashes).toEqual(Object.fromEntries(list.files.map((entry) => [entry.filename, entry.sha256])));

    await garbleHeader(path.join(state, LEDGER_FILE));
    const synced = await mlsoDl(state, 'campaign', 'sync', 'season', '-u', DEMO_EMAIL);
    expect(synced.stderr).toMatch(/^mlso-dl: The download ledger .* was damaged .* The campaign "season" was restored from its copy in /);
    expect(await whatIsSaid(state)).toEqual(before);
  });

  it('copied from another state folder, gets back the campaigns of this one and says why they were gone', { timeout: 60_000 }, async () => {
    const [theirs, ours] = [await temporaryFolder(), await temporaryFolder()];
    const folder = await temporaryFolder();
    const create = (state: string, name: string) =>
      mlsoDl(state, 'campaign', 'create', name, '-i', 'kcor', '-p', 'pb', ...DAY, '--output-dir', path.join(folder, name));
    expect((await create(theirs, 'alpha')).status).toBe(0);
    expect((await create(ours, 'beta')).status).toBe(0);
    expect((await create(ours, 'gamma')).status).toBe(0);
    await copyFile(path.join(theirs, LEDGER_FILE), path.join(ours, LEDGER_FILE));

    const listed = await mlsoDl(ours, 'campaign', 'list', '--json');
    expect(listed.status).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((campaign) => campaign.name)).toEqual(['alpha', 'beta', 'gamma']);
    expect(listed.stderr).toBe(
      `mlso-dl: The download ledger ${path.join(ours, LEDGER_FILE)} did not hold the campaigns "beta" and "gamma" (it may have been copied from ` +
        `another state folder, or an older one put back), so they were restored from their copies in ${path.join(ours, CAMPAIGN_BACKUP_FOLDER)}.\n`,
    );
    // Said once: the ledger holds them now, and every campaign has its copy.
    const again = await mlsoDl(ours, 'campaign', 'list', '--json');
    expect(again.stderr).toBe('');
    expect((await readdir(path.join(ours, CAMPAIGN_BACKUP_FOLDER))).filter((name) => name.endsWith('.mlso-campaign.json'))).toHaveLength(3);
  });
});
