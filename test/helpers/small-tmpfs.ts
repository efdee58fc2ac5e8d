// A small tmpfs mounted for a test: a real file system that fills up, so a full disk is the kernel's ENOSPC through
// Node's own fs, not a mocked write. Mounting needs root and a system that allows it (CI runs as root); elsewhere
// tmpfsRefusal says why, for the tests to skip with that reason.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SmallDisk {
  folder: string;
  /** Gives the file system this size (room freed, as a user who deletes files would). */
  resize(bytes: number): Promise<void>;
  unmount(): Promise<void>;
}

/** Why a tmpfs cannot be mounted here, or undefined when it can (tried once, on a folder of its own). */
export async function tmpfsRefusal(): Promise<string | undefined> {
  if (process.platform !== 'linux') return `a tmpfs is mounted on Linux only, and this is ${process.platform}`;
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    const disk = await mountSmallTmpfs(1024 * 1024);
    await disk.unmount();
    return undefined;
  } catch (error) {
    return `mount refused: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

export async function mountSmallTmpfs(bytes: number): Promise<SmallDisk> {
  const folder = await mkdtemp(path.join(tmpdir(), 'mlso-small-disk-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeOption(bytes)}`, 'tmpfs', folder]);
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return {
    folder,
    resize: async (size) => {
      await run('mount', ['-o', `remount,size=${sizeOption(size)}`, folder]);
    },
    unmount: async () => {
      // Lazily, so a descriptor a failed test left open cannot keep the mount (and the test run) hanging.
      await run('umount', ['-l', folder]);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Fills the file system of `folder` with one file at `filler`, leaving `leftBytes` free. */
export async function fillLeaving(folder: string, filler: string, leftBytes: number): Promise<void> {
  const { bavail, bsize } = await statfs(folder);
  await writeFile(filler, Buffer.alloc(Math.max(0, bavail * bsize - leftBytes)));
}

/** tmpfs takes its size in KiB, rounded up to whole pages. */
const sizeOption = (bytes: number): string => `${Math.ceil(bytes / 1024)}k`;
