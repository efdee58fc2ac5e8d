// files:read hands the window the bytes of a finished download, and only those: a file replaced by a symbolic
// link, a folder of the layout replaced by one, or something that is not a plain file (a FIFO would block the
// read for ever) is refused in a plain sentence, and nothing outside the download folder is read.
import { execFileSync } from 'node:child_process';
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { waitFor } from '../../helpers/wait-for';

const emulator = useEmulator({ imageSize: 32 });
const open: CoreHarness[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
});

const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T23:59:59', every: '4hours' } };
const SECRET = 'root:x:0:0:the secret outside the download folder\n';

/** A campaign synced into year/month folders: its files with their job ids and paths on disk. */
async function finishedFiles(
  downloadFolder?: string,
): Promise<{ h: CoreHarness; folder: string; files: { jobId: number; relativePath: string; filename: string }[] }> {
  const h = await coreHarness(emulator(), downloadFolder ? { settings: { downloadFolder } } : {});
  open.push(h);
  await h.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
  await h.core.handlers['campaigns:create']({ name: 'reads', queries: [QUERY], layout: '{yyyy}/{mm}' });
  const report = await h.core.handlers['campaigns:sync']({ name: 'reads' });
  await waitFor(async () => (await h.core.handlers['campaigns:list']())[0]!.counts.onDisk === report.total.listed, 'every file on disk');
  const files = (await h.core.handlers['campaigns:files']({ name: 'reads' })).map((file) => ({
    jobId: file.jobId!,
    relativePath: file.relativePath,
    filename: file.filename,
  }));
  return { h, folder: path.join(downloadFolder ?? h.downloadFolder, 'reads'), files };
}

async function outsideFile(): Promise<string> {
  const file = path.join(await temporaryFolder(), 'passwd');
  await writeFile(file, SECRET);
  return file;
}

describe('files:read', () => {
  it('refuses a finished file replaced by a symbolic link to a file outside the folder', async () => {
    const { h, folder, files } = await finishedFiles();
    const [first] = files;
    expect(Buffer.from((await h.core.handlers['files:read']({ id: first!.jobId })).bytes).equals(await emulator().fileBytes('kcor', first!.filename))).toBe(
      true,
    );

    const target = path.join(folder, first!.relativePath);
    await rm(target);
    await symlink(await outsideFile(), target);
    const answer = await invokeHandler(h.core.handlers, 'files:read', { id: first!.jobId });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `${first!.filename} has been replaced by a link, which is not followed: download it (or sync its campaign) again.`,
      },
    });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  it('refuses a file whose folder was replaced by a symbolic link to a folder outside', async () => {
    const { h, folder, files } = await finishedFiles();
    const [first] = files;
    const month = path.dirname(path.join(folder, first!.relativePath));
    const elsewhere = await temporaryFolder();
    await writeFile(path.join(elsewhere, first!.filename), SECRET);
    await rename(month, `${month}.moved`);
    await symlink(elsewhere, month);
    const answer = await invokeHandler(h.core.handlers, 'files:read', { id: first!.jobId });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        message: `${first!.filename} is no longer inside ${h.downloadFolder} (a folder on its way is a link elsewhere): download it (or sync its campaign) again.`,
      },
    });
    expect(JSON.stringify(answer)).not.toContain('secret');
  });

  it('refuses at once a file replaced by a FIFO (a read would wait for a writer for ever) or by a folder', async () => {
    const { h, folder, files } = await finishedFiles();
    const [first, second] = files;
    const fifo = path.join(folder, first!.relativePath);
    await rm(fifo);
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    expect(await invokeHandler(h.core.handlers, 'files:read', { id: first!.jobId })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: `${first!.filename} is no longer a plain file: download it (or sync its campaign) again.` },
    });
    expect(Date.now() - started).toBeLessThan(2000);
    const folderInstead = path.join(folder, second!.relativePath);
    await rm(folderInstead);
    await mkdir(folderInstead);
    expect(await invokeHandler(h.core.handlers, 'files:read', { id: second!.jobId })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', message: `${second!.filename} is no longer a plain file: download it (or sync its campaign) again.` },
    });
  });

  it('still reads from a download folder reached through a symbolic link (the user chose it so)', async () => {
    const linked = path.join(await temporaryFolder(), 'data');
    await symlink(await temporaryFolder(), linked);
    const { h, folder, files } = await finishedFiles(linked);
    expect(folder.startsWith(linked)).toBe(true);
    const read = await h.core.handlers['files:read']({ id: files[0]!.jobId });
    expect(Buffer.from(read.bytes).equals(await emulator().fileBytes('kcor', files[0]!.filename))).toBe(true);
  });
});
