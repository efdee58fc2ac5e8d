// The sync's look at every finished file of a campaign (quick-check-pass.ts), on real files: what passes as written,
// what is gone or changed (size, time, a link or a folder in the file's place), a first look at a file whose time
// was never recorded, and a stop.
import { mkdir, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { QuickCheckPass } from '../../../src-main/core/campaigns/quick-check-pass';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { temporaryFolder } from '../../helpers/fixtures';

const opened: StateDatabase[] = [];
afterEach(() => {
  for (const state of opened.splice(0)) state.close();
});

/** A campaign of finished files, each written as `bytes` and recorded with its time (or none: `unrecorded`). */
async function campaignOf(names: readonly string[], unrecorded: readonly string[] = []): Promise<{ state: StateDatabase; folder: string }> {
  const folder = await temporaryFolder();
  const state = StateDatabase.open(path.join(await temporaryFolder(), 'downloads.sqlite'), STATE_DOMAINS);
  opened.push(state);
  const db = state.connection;
  const now = new Date().toISOString();
  db.prepare("INSERT INTO campaigns (id, name, name_key, folder, layout, created_at) VALUES (1, 'c', 'c', ?, '', ?)").run(folder, now);
  for (const name of names) {
    const target = path.join(folder, name);
    await writeFile(target, `bytes of ${name}`);
    const { size, mtimeMs } = await stat(target);
    db.prepare(
      `INSERT INTO jobs (url, instrument, product, filename, folder, target_path, state, bytes_written, sha256, written_mtime_ms, created_at, updated_at)
       VALUES ('http://x/f', 'kcor', 'pb', ?, ?, ?, 'done', ?, 'a', ?, ?, ?)`,
    ).run(name, folder, target, size, unrecorded.includes(name) ? null : mtimeMs, now, now);
    db.prepare(
      `INSERT INTO campaign_files (campaign_id, relative_path, target_path, filename, url, instrument, product, filesize, first_seen_at)
       VALUES (1, ?, ?, ?, 'http://x/f', 'kcor', 'pb', 0, ?)`,
    ).run(name, target, name, now);
  }
  return { state, folder };
}

describe("a sync's quick check of a campaign's finished files", () => {
  it('passes the files as written, and finds one gone, shortened, retimed, or replaced by a link or a folder', async () => {
    const names = ['same.fts', 'gone.fts', 'short.fts', 'retimed.fts', 'linked.fts', 'folder.fts', 'other.fts'];
    const { state, folder } = await campaignOf(names);
    const at = (name: string): string => path.join(folder, name);
    await rm(at('gone.fts'));
    await truncate(at('short.fts'), 3);
    const before = await stat(at('retimed.fts'));
    await utimes(at('retimed.fts'), before.atime, new Date(before.mtimeMs + 1000));
    // A link in the file's place, to a file of its size, is not the file that was written.
    await rm(at('linked.fts'));
    await writeFile(at('other.fts'), 'bytes of linked.fts');
    await symlink(at('other.fts'), at('linked.fts'));
    await rm(at('folder.fts'));
    await mkdir(at('folder.fts'));

    // Three threads, each a range of the set, as on a machine with more cores.
    const pass = new QuickCheckPass(state, 1, { threads: 3 });
    try {
      const result = await pass.finish();
      expect(result.looked).toBe(names.length);
      expect(result.firstLooks).toEqual([]);
      expect(Object.fromEntries(result.failed.map((failure) => [failure.relativePath, failure.verdict]))).toEqual({
        'gone.fts': 'missing',
        'short.fts': 'changed',
        'retimed.fts': 'changed',
        'linked.fts': 'changed',
        'folder.fts': 'changed',
        // Rewritten above (another size): changed as well.
        'other.fts': 'changed',
      });
    } finally {
      await pass.close();
    }
  });

  it('passes a file whose time a copy or a restore kept only to the millisecond or to the second, as rsync does', async () => {
    const { state, folder } = await campaignOf(['copied.fts', 'untarred.fts']);
    const at = (name: string): string => path.join(folder, name);
    // A copy that keeps times through utimes with a Date (to the millisecond), and an archive that keeps seconds.
    const copied = await stat(at('copied.fts'));
    await utimes(at('copied.fts'), copied.atime, new Date(Math.trunc(copied.mtimeMs)));
    const untarred = await stat(at('untarred.fts'));
    await utimes(at('untarred.fts'), untarred.atime, new Date(Math.trunc(untarred.mtimeMs / 1000) * 1000));
    const pass = new QuickCheckPass(state, 1, { threads: 1 });
    try {
      const result = await pass.finish();
      expect(result.looked).toBe(2);
      expect(result.failed).toEqual([]);
    } finally {
      await pass.close();
    }
  });

  it('passes a file whose time a copy rounded to the millisecond, up onto the next whole second', async () => {
    const { state, folder } = await campaignOf(['late.fts']);
    const file = path.join(folder, 'late.fts');
    // Written in the last millisecond of a second (a clock tick can fall there), and recorded so.
    const written = await stat(file);
    const lateInSecond = Math.trunc(written.mtimeMs / 1000) + 0.9996875;
    await utimes(file, written.atime, lateInSecond);
    const recorded = (await stat(file)).mtimeMs;
    expect(Math.trunc(recorded / 1000)).toBe(Math.trunc(lateInSecond));
    state.connection.prepare('UPDATE jobs SET written_mtime_ms = ?').run(recorded);
    // Node's fs.cp with preserveTimestamps: the time to the nearest millisecond, the next second's first.
    await utimes(file, written.atime, new Date(Math.round(recorded)));
    expect(Math.trunc((await stat(file)).mtimeMs / 1000)).toBe(Math.trunc(lateInSecond) + 1);
    const pass = new QuickCheckPass(state, 1, { threads: 1 });
    try {
      expect((await pass.finish()).failed).toEqual([]);
    } finally {
      await pass.close();
    }
  });

  it('looks on the main thread, finding the same, where its thread cannot load better-sqlite3', async () => {
    const { state, folder } = await campaignOf(['same.fts', 'gone.fts']);
    await rm(path.join(folder, 'gone.fts'));
    const pass = new QuickCheckPass(state, 1, { sqliteModule: path.join(folder, 'no-such-module.js') });
    try {
      const result = await pass.finish();
      expect([result.looked, result.failed.map((failure) => [failure.relativePath, failure.verdict])]).toEqual([2, [['gone.fts', 'missing']]]);
    } finally {
      await pass.close();
    }
  });

  it('passes a file whose time was never recorded by its size, and gives the time found to record', async () => {
    const { state, folder } = await campaignOf(['old.fts', 'new.fts'], ['old.fts']);
    const pass = new QuickCheckPass(state, 1);
    try {
      const result = await pass.finish();
      expect(result.failed).toEqual([]);
      const { mtimeMs } = await stat(path.join(folder, 'old.fts'));
      const oldId = state.connection.prepare<[], number>("SELECT id FROM jobs WHERE filename = 'old.fts'").pluck().get();
      expect(result.firstLooks).toEqual([{ id: oldId, mtimeMs }]);
    } finally {
      await pass.close();
    }
  });

  it('ends with the reason of the signal that stopped it', async () => {
    const { state } = await campaignOf(['a.fts', 'b.fts']);
    const stop = new AbortController();
    const pass = new QuickCheckPass(state, 1, { signal: stop.signal });
    try {
      stop.abort(new Error('stopped by the test'));
      await expect(pass.finish()).rejects.toThrow('stopped by the test');
    } finally {
      await pass.close();
    }
  });
});
