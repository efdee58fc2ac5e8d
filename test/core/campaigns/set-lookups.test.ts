// A sync looks up each piece of a listing in the campaign's set (its files of the piece's names, at the piece's
// paths). A first sync's pieces come in order, past every file recorded before them: one look into the index between
// the piece's first and last answers "none" at once, instead of a look per name (a million of them).
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
  it('find the files of a piece by name and by path, and look no name up when the piece lies past them all', async () => {
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
});
