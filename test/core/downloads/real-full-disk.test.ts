// A full disk pauses the queue, leaves no partial file and carries on once there is room: on a real file system that
// fills up (a small tmpfs), so what the kernel and Node's fs do with ENOSPC is what is tested, on whichever Node runs
// the tests (20, 22, 24: Electron's). Run as root (CI is); elsewhere the test is skipped and its name says why.
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { isResumeFileName } from '../../../src-main/core/downloads/resume-file';
import { isTemporaryName } from '../../../src-main/core/downloads/temporary-files';
import { listFolder, useEmulator } from '../../helpers/fixtures';
import { fillLeaving, mountSmallTmpfs, tmpfsRefusal, type SmallDisk } from '../../helpers/small-tmpfs';
import { expectExactFolder, listing, useHarnesses, type Harness } from './engine-harness';

const MIB = 1024 * 1024;
// 512 x 512 images: some 0.7 MB as sent, 1.05 MB on disk.
const emulator = useEmulator({ imageSize: 512 });
const { harness } = useHarnesses(emulator);
const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };
const FILLER = 'another-program.bin';

const refusal = await tmpfsRefusal();
let disk: SmallDisk | undefined;
afterEach(async () => {
  await disk?.unmount();
  disk = undefined;
});

/** Every file in the folder is whole (the server's bytes) or a resume file a job records, of the size its row shows. */
async function expectNothingPartial(h: Harness, folder: string, files: readonly FileEntry[]): Promise<void> {
  const names = (await listFolder(folder)).filter((name) => name !== FILLER);
  expect(names.filter(isTemporaryName)).toEqual([]);
  const keptBy = new Map(h.ledger.list().flatMap((job) => (job.resume ? [[job.resume.name, job] as const] : [])));
  for (const name of names) {
    if (isResumeFileName(name)) {
      expect(keptBy.has(name), `${name} is recorded`).toBe(true);
      expect((await stat(path.join(folder, name))).size, `${name}'s size`).toBe(keptBy.get(name)!.resumeBytes);
      continue;
    }
    const file = files.find((each) => each.filename === name);
    expect(file, `${name} is a listed file`).toBeDefined();
    expect((await readFile(path.join(folder, name))).equals(await emulator().fileBytes('kcor', name)), `${name} is whole`).toBe(true);
  }
}

describe.skipIf(refusal !== undefined)(`a real full disk${refusal ? ` (skipped: ${refusal})` : ''}`, () => {
  it('filled by another program after the free-space check: the queue pauses, nothing partial stays, and it finishes once there is room', async () => {
    disk = await mountSmallTmpfs(12 * MIB);
    const files = (await listing(emulator(), window)).slice(0, 6);
    expect(files).toHaveLength(6);
    const h = await harness({ concurrency: 2 });
    // The queue waits while the disk fills behind the check made when the files were queued.
    h.engine.pauseAll();
    await h.engine.enqueue(files, disk.folder);
    await fillLeaving(disk.folder, path.join(disk.folder, FILLER), 2.5 * MIB);
    h.engine.resumeAll();

    expect(await h.engine.whenSettled()).toBe('paused');
    const overall = h.engine.overall();
    expect(overall.pauseReason).toMatchObject({ kind: 'disk-full' });
    expect(overall.pauseReason!.message).toMatch(/is full/);
    expect(overall.failed).toBe(0);
    expect(h.ledger.list({ states: ['done'] }).length).toBeLessThan(files.length);
    await expectNothingPartial(h, disk.folder, files);

    await rm(path.join(disk.folder, FILLER));
    h.engine.resumeAll();
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), disk.folder, files);
  });
});
