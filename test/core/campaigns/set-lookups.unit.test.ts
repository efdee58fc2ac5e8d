// A sync looks up each chunk of a listing in the campaign's set (its files of the chunk's names, at the chunk's
// paths). A first sync's chunks come in order, past every file recorded before them: one look into the index between
// the chunk's first and last answers "none" at once, instead of a look per name (a million of them).
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import { temporaryFolder } from '../../helpers/fixtures';
import { openStateFile } from '../state/state-file';
import { kcorFileRecord } from '../../../scripts/bench/campaign-records';

/** The SQL of every statement prepared on `connection` while `run` runs. */
function statementsDuring<T>(connection: { prepare: (sql: string) => unknown }, run: () => T): { result: T; statements: string[] } {
  const statements: string[] = [];
  const prepare = connection.prepare.bind(connection);
  const spy = vi.spyOn(connection, 'prepare').mockImplementation((sql: string) => {
    statements.push(sql);
    return prepare(sql);
  });
  try {
    return { result: run(), statements };
  } finally {
    spy.mockRestore();
  }
}

const perName = (statements: readonly string[]): string[] => statements.filter((sql) => /IN \(SELECT value FROM json_each/.test(sql));

describe("a sync's look-ups in the campaign's set", () => {
  it('find the files of a chunk by name and by path, and look no name up when the chunk lies past them all', async () => {
    const { state } = openStateFile(path.join(await temporaryFolder(), 'ledger.sqlite'));
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'mirror', folder: '/data/mirror', layout: '', queries: [], autoSyncHours: null });
    const day = (hour: number): string[] =>
      Array.from({ length: 60 }, (_, minute) => `20250324_${String(hour).padStart(2, '0')}${String(minute).padStart(2, '0')}00_kcor_l2_pb.fts.gz`);
    store.recordFiles(
      campaign.id,
      [...day(10), ...day(11)].map((name) => kcorFileRecord(`/data/mirror/${name}`, 100)),
    );

    const later = statementsDuring(state.connection, () => [store.filesNamed(campaign.id, day(12)), store.filesAt(campaign.id, day(13))]);
    expect(later.result).toEqual([[], []]);
    expect(perName(later.statements)).toEqual([]);

    const among = [day(9)[5]!, day(10)[7]!, day(11)[59]!, day(12)[0]!];
    const found = statementsDuring(state.connection, () => [store.filesNamed(campaign.id, among), store.filesAt(campaign.id, among)]);
    for (const files of found.result) expect(files.map((file) => file.filename).sort()).toEqual([day(10)[7], day(11)[59]]);
    expect(perName(found.statements)).toHaveLength(2);
    // A name past U+D7FF sorts otherwise in JavaScript than in SQLite: looked up name by name.
    const odd = statementsDuring(state.connection, () => store.filesNamed(campaign.id, [day(12)[0]!, '\uE000.fts', '\u{1F600}.fts']));
    expect(odd.result).toEqual([]);
    expect(perName(odd.statements)).toHaveLength(1);
  });

  it('records new files and refreshes known ones in one call of any size, each file as if recorded alone', async () => {
    const { state } = openStateFile(path.join(await temporaryFolder(), 'ledger.sqlite'));
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'mirror', folder: '/data/mirror', layout: '', queries: [], autoSyncHours: null });
    const record = (index: number, size: number) => kcorFileRecord(`/data/mirror/f${String(index).padStart(4, '0')}.fts`, size);
    expect(
      store.recordFiles(
        campaign.id,
        [0, 150, 151, 290].map((index) => record(index, 1)),
      ),
    ).toBe(4);
    const listedBy = { at: '2026-01-01T00:00:00.000Z', bit: 2 };
    // 300 files: 296 new, 4 known, and the last new one listed twice (its second listing's size is the one kept).
    const files = [...Array.from({ length: 300 }, (_, index) => record(index, 5)), record(299, 7)];
    expect(store.recordFiles(campaign.id, files, listedBy)).toBe(296);
    const rows = state.connection
      .prepare<[], { filesize: number; listed_at: string | null; listed_by: number }>(
        'SELECT filesize, listed_at, listed_by FROM campaign_files ORDER BY relative_path',
      )
      .all();
    expect(rows).toHaveLength(300);
    expect(rows.slice(0, 299).every((row) => row.filesize === 5 && row.listed_at === listedBy.at && row.listed_by === 2)).toBe(true);
    expect(rows[299]).toEqual({ filesize: 7, listed_at: listedBy.at, listed_by: 2 });
    expect(store.recordFiles(campaign.id, [record(0, 9), record(300, 9)], { ...listedBy, bit: 4 })).toBe(1);
    expect(store.filesAt(campaign.id, ['f0000.fts', 'f0300.fts']).map((file) => file.filesize)).toEqual([9, 9]);
  });

  it('refreshes a relisted chunk whose files the set has, in one statement and without inserting', async () => {
    const { state } = openStateFile(path.join(await temporaryFolder(), 'ledger.sqlite'));
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'mirror', folder: '/data/mirror', layout: '', queries: [], autoSyncHours: null });
    const record = (index: number, size: number) => kcorFileRecord(`/data/mirror/f${String(index).padStart(4, '0')}.fts`, size);
    store.recordFiles(
      campaign.id,
      Array.from({ length: 500 }, (_, index) => record(index, 5)),
      { at: '2026-01-01T00:00:00.000Z', bit: 1 },
    );
    const again = { at: '2026-02-01T00:00:00.000Z', bit: 2 };
    const relisted = Array.from({ length: 500 }, (_, index) => ({
      ...record(index, index === 7 ? 8 : 5),
      expectedSha256: index === 9 ? 'a'.repeat(64) : null,
    }));
    // A store of its own prepares its statements anew, where they are seen.
    const relisting = new CampaignStore(state);
    const { result, statements } = statementsDuring(state.connection, () => [
      relisting.recordFiles(campaign.id, relisted, again),
      relisting.recordFiles(campaign.id, relisted.slice(0, 3), { ...again, bit: 4 }),
    ]);
    expect(result).toEqual([0, 0]);
    expect(statements.filter((sql) => /^\s*INSERT/.test(sql))).toEqual([]);
    const rows = state.connection
      .prepare<[], { filesize: number; listed_at: string; listed_by: number; expected_sha256: string | null }>(
        'SELECT filesize, listed_at, listed_by, expected_sha256 FROM campaign_files ORDER BY relative_path',
      )
      .all();
    expect(rows.map((row) => row.listed_by)).toEqual(Array.from({ length: 500 }, (_, index) => (index < 3 ? 6 : 2)));
    expect(rows.every((row) => row.listed_at === again.at)).toBe(true);
    expect(rows.filter((row) => row.filesize === 8)).toHaveLength(1);
    expect(rows[9]!.expected_sha256).toBe('a'.repeat(64));
    expect(rows.filter((row) => row.expected_sha256 !== null)).toHaveLength(1);
  });
});
