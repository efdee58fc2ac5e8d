// `mlso-dl files --download` into a real disk that fills up (a small tmpfs), run as the built command on the Node
// that runs the tests: the run stops with one plain line saying the disk is full, leaves no partial file, and the
// same command run again once there is room finishes the files. The listing gives no sizes (the API may list 0), so
// the free-space check before the run cannot see it coming. Run as root (CI is); elsewhere skipped, saying why.
import { afterEach, describe, expect, it } from 'vitest';
import { isTemporaryName } from '../../src-main/core/downloads/temporary-files';
import { downloadArgs } from '../core/downloads/cli-process';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli } from '../helpers/built-cli';
import { listFolder, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { mountSmallTmpfs, tmpfsRefusal, type SmallDisk } from '../helpers/small-tmpfs';

const MIB = 1024 * 1024;
// 512 x 512 images, 1.05 MB each on disk, listed with a size of 0.
const emulator = useEmulator({ imageSize: 512, zeroFilesizeRate: 1 });
const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };

const refusal = await tmpfsRefusal();
let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.unmount();
  disk = undefined;
});

describe.skipIf(refusal !== undefined)(`mlso-dl on a real full disk${refusal ? ` (skipped: ${refusal})` : ''}`, () => {
  it('stops with one plain line, keeps no partial file, and the same command finishes once there is room', async () => {
    disk = await mountSmallTmpfs(3 * MIB);
    const files = await listing(emulator(), window);
    expect(files.length).toBeGreaterThan(4);
    const args = downloadArgs({ baseUrl: emulator().url, window, folder: disk.folder, stateFolder: await temporaryFolder() });

    const full = await runBuiltCli(args);
    expect(full.stderr).not.toMatch(/unexpected problem|\n\s+at /);
    expect(full.stderr).toContain(`mlso-dl: The disk holding ${disk.folder} is full. Free some space or choose another download folder, then resume.`);
    expect(full.status).toBe(1);
    const left = await listFolder(disk.folder);
    expect(left.filter(isTemporaryName)).toEqual([]);
    expect(left.filter((name) => !name.startsWith('.')).length).toBeLessThan(files.length);

    await disk.resize(16 * MIB);
    const again = await runBuiltCli(args);
    expect(again.stderr).not.toMatch(/unexpected problem|is full/);
    expect(again.status).toBe(0);
    await expectExactFolder(emulator(), disk.folder, files);
  });
});
