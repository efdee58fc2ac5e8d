// The README's promise: a file is renamed into place only once "it has been flushed to disk". The file system
// calls the download makes are recorded (node:fs and node:fs/promises wrapped, everything else untouched), so the
// test sees the descriptor of each temporary file flushed (fsync or fdatasync) before that file is renamed.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

/** What happened to files, in order: `open <path> <fd>`, `flush <fd>`, `rename <from> <to>`. */
const recorded = vi.hoisted(() => [] as string[]);

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  type Callback = (error: NodeJS.ErrnoException | null, ...results: unknown[]) => void;
  /** The same function, noting what `note` makes of its arguments and results once it succeeded. */
  const noted =
    (original: (...args: never[]) => void, note: (args: unknown[], results: unknown[]) => string) =>
    (...args: unknown[]) => {
      const callback = args.pop() as Callback;
      (original as (...a: unknown[]) => void)(...args, (error: NodeJS.ErrnoException | null, ...results: unknown[]) => {
        if (!error) recorded.push(note(args, results));
        callback(error, ...results);
      });
    };
  return {
    ...actual,
    open: noted(actual.open, ([file], [fd]) => `open ${String(file)} ${String(fd)}`),
    fsync: noted(actual.fsync, ([fd]) => `flush ${String(fd)}`),
    fdatasync: noted(actual.fdatasync, ([fd]) => `flush ${String(fd)}`),
  };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const rename: typeof actual.rename = async (from, to) => {
    await actual.rename(from, to);
    recorded.push(`rename ${String(from)} ${String(to)}`);
  };
  return { ...actual, rename, default: { ...actual, rename } };
});

const emulator = useEmulator({ imageSize: 64 });
const { harness } = useHarnesses(emulator);

describe('flushed to disk before the rename', () => {
  it('flushes each temporary file through its own descriptor before renaming it to its real name', async () => {
    const files = (await listing(emulator(), { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:01:00' })).slice(0, 3);
    const h = await harness({ concurrency: 2 });
    recorded.length = 0;
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);

    for (const file of files) {
      const finalPath = path.join(h.folder, file.filename);
      const renamedAt = recorded.findIndex((event) => event.startsWith('rename ') && event.endsWith(` ${finalPath}`));
      expect(renamedAt, `${file.filename} renamed into place`).toBeGreaterThan(-1);
      const temporaryPath = recorded[renamedAt]!.slice('rename '.length, -(finalPath.length + 1));
      expect(path.dirname(temporaryPath)).toBe(h.folder);
      // The descriptor the temporary file was opened with; a later file may get the same number once it is closed.
      const openedAt = recorded.findLastIndex((event, index) => index < renamedAt && event.startsWith(`open ${temporaryPath} `));
      expect(openedAt, `${file.filename}'s temporary file opened`).toBeGreaterThan(-1);
      const fd = recorded[openedAt]!.split(' ').at(-1);
      const flushes = recorded.slice(openedAt + 1, renamedAt).filter((event) => event === `flush ${fd}`);
      expect(flushes, `${file.filename} flushed before its rename`).toHaveLength(1);
    }
  });
});
