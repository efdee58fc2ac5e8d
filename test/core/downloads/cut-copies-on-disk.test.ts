// The example, through the real skip path: a 28,800-byte copy of a 106,560-byte UCoMP file (its empty
// primary HDU and the first of the four extensions its NEXTEND declares) lies in the download folder under the
// file's name. It is not "already complete": the download fetches the file and replaces the copy.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { cliAgainst, listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';

// 84 x 67 float32 images (UCoMP's 5:4): four dynamics extensions of 2880 + 23,040 bytes after a 2880-byte primary =
// 106,560 bytes.
const emulator = useEmulator({ imageSize: 16, ucompImageSize: 84 });
const cli = cliAgainst(emulator);
const query = ['files', '-i', 'ucomp', '-p', 'dynamics', '-s', '2025-03-24', '--every', '1day'];

describe('a cut copy of a multi-extension file already in the download folder', () => {
  it('is downloaded again, not skipped as already complete', async () => {
    const folder = await temporaryFolder();
    const listing = JSON.parse((await cli(...query, '--json')).stdout) as { files: { filename: string }[] };
    expect(listing.files).toHaveLength(1);
    const name = listing.files[0]!.filename;
    const whole = await emulator().fileBytes('ucomp', name);
    expect(whole.length).toBe(106_560);
    await writeFile(path.join(folder, name), whole.subarray(0, 28_800));

    const run = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Downloaded 1 file.* skipped 0 already complete; 0 failed/);
    expect(await listFolder(folder)).toEqual([name]);
    expect((await stat(path.join(folder, name))).size).toBe(106_560);
    expect((await readFile(path.join(folder, name))).equals(whole)).toBe(true);
  });

  it('a copy without the padding of its last data unit (its data all there) is downloaded again, not skipped', async () => {
    const folder = await temporaryFolder();
    const listing = JSON.parse((await cli(...query, '--json')).stdout) as { files: { filename: string }[] };
    const name = listing.files[0]!.filename;
    const whole = await emulator().fileBytes('ucomp', name);
    // 84 x 67 x 4 = 22,512 bytes of data in a 23,040-byte data unit: 528 bytes of padding.
    await writeFile(path.join(folder, name), whole.subarray(0, whole.length - 528));

    const run = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder);
    expect(run.status, run.stderr).toBe(0);
    // Fetched, or reused from the folder of a test before (the state folder is shared): not skipped.
    expect(run.stderr).toMatch(/skipped 0 already complete; 0 failed/);
    expect((await readFile(path.join(folder, name))).equals(whole)).toBe(true);
  });

  it('the whole file is skipped as already complete', async () => {
    const folder = await temporaryFolder();
    const listing = JSON.parse((await cli(...query, '--json')).stdout) as { files: { filename: string }[] };
    const name = listing.files[0]!.filename;
    await writeFile(path.join(folder, name), await emulator().fileBytes('ucomp', name));
    emulator().resetStats();
    const run = await cli(...query, '-d', '-u', DEMO_EMAIL, '-o', folder);
    expect(run.stderr).toMatch(/Downloaded 0 files.* skipped 1 already complete/);
    expect(emulator().stats().downloadsStarted).toBe(0);
  });
});
