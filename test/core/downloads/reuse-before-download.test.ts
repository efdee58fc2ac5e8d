// A file already downloaded into another folder is not fetched again: the enqueuer copies it from there (checked
// against its recorded SHA-256 first), or hard-links it when asked.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEmulator } from '../../helpers/fixtures';
import { KCOR_DAY, expectFilesIntact, serviceOver, syncAndWait } from '../campaigns/campaign-harness';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';
import { temporaryFolder } from '../../helpers/fixtures';
import { tallyReused } from '../../../src-shared/downloads/reused-files';

const emulator = useEmulator({ imageSize: 16 });
const { harness } = useHarnesses(emulator);

const day = KCOR_DAY.filters;

describe('reuse before download', () => {
  it('a campaign over files Browse downloaded into another folder downloads nothing and verifies clean', async () => {
    const h = await harness();
    const files = await listing(emulator(), day);
    expect(files.length).toBeGreaterThan(2);
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    expect(emulator().stats().downloadsStarted).toBe(files.length);
    emulator().resetStats();

    const service = serviceOver(h);
    const campaign = await service.create({ name: 'again', folder: path.join(await temporaryFolder(), 'again'), layout: '', queries: [KCOR_DAY] });
    const report = await syncAndWait(service, h, campaign.name);
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(report.reused).toEqual({ count: files.length, from: [h.folder] });
    await expectFilesIntact(emulator(), service, campaign);
    const verified = await service.verify(campaign.name);
    expect(verified).toMatchObject({ onDisk: files.length, missing: 0, changed: 0, unexpected: 0, failed: 0, problems: [] });
    // Each reused job is recorded done with the SHA-256 of its source.
    const before = new Map(
      h.ledger
        .list({ states: ['done'] })
        .filter((job) => job.folder === h.folder)
        .map((job) => [job.filename, job.sha256]),
    );
    for (const job of h.ledger.list({ states: ['done'] }).filter((job) => job.folder === campaign.folder)) {
      expect(job.sha256).toBe(before.get(job.filename));
    }
  });

  it('a file changed on disk since it was downloaded is fetched, not reused', async () => {
    const h = await harness({ batchId: 'first' });
    const files = await listing(emulator(), day);
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    const changed = files[1]!;
    const changedPath = path.join(h.folder, changed.filename);
    const size = (await stat(changedPath)).size;
    await writeFile(changedPath, Buffer.alloc(size, 0x20)); // same size, other bytes
    emulator().resetStats();

    const other = await temporaryFolder();
    const result = await h.engine.enqueue(files, other);
    await h.engine.whenSettled();
    expect(tallyReused(result.reused)).toEqual({ count: files.length - 1, from: [h.folder] });
    expect(emulator().stats().downloadsStarted).toBe(1);
    expect(Object.keys(emulator().stats().downloadsByFile)).toEqual([expect.stringContaining(changed.filename)]);
    await expectExactFolder(emulator(), other, files);
  });

  it('with reuse by link, the new file is a hard link to the old one (same inode)', async () => {
    const h = await harness({ reuseBy: 'link' });
    const files = await listing(emulator(), day);
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    emulator().resetStats();

    const other = await temporaryFolder();
    const result = await h.engine.enqueue(files, other);
    await h.engine.whenSettled();
    expect(result.reused.length).toBe(files.length);
    expect(emulator().stats().downloadsStarted).toBe(0);
    for (const file of files) {
      const [from, to] = await Promise.all([stat(path.join(h.folder, file.filename)), stat(path.join(other, file.filename))]);
      expect(to.ino).toBe(from.ino);
    }
  });

  it('copies by default: the new file is its own (another inode), with the same bytes', async () => {
    const h = await harness();
    const files = await listing(emulator(), day);
    await h.engine.enqueue(files, h.folder);
    await h.engine.whenSettled();
    const other = await temporaryFolder();
    await h.engine.enqueue(files, other);
    await h.engine.whenSettled();
    const file = files[0]!;
    const [from, to] = await Promise.all([stat(path.join(h.folder, file.filename)), stat(path.join(other, file.filename))]);
    expect(to.ino).not.toBe(from.ino);
    expect((await readFile(path.join(other, file.filename))).equals(await readFile(path.join(h.folder, file.filename)))).toBe(true);
    await expectExactFolder(emulator(), other, files);
  });
});
