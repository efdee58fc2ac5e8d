// What a sync costs beyond its listings at a million files (issue 22 items 2 and 3): every pass over the campaign's
// set takes seconds there, so a sync makes as few as its work needs. Counted here on small campaigns by the
// statements the state database is asked to prepare.
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses, type Harness } from '../downloads/engine-harness';
import { KCOR_DAY, UCOMP_DAY, serviceOver } from './campaign-harness';

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

/** The SQL of every statement prepared on the harness's state database while `run` runs. */
async function statementsDuring<T>(h: Harness, run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  const connection = h.state.connection;
  const prepare = connection.prepare.bind(connection);
  const spy = vi.spyOn(connection, 'prepare').mockImplementation(((sql: string) => {
    statements.push(sql);
    return prepare(sql);
  }) as typeof connection.prepare);
  try {
    return { result: await run(), statements };
  } finally {
    spy.mockRestore();
  }
}

/**
 * Queries that count the campaign's files in groups (the report's per-query figures, over the files the sync listed;
 * the total is the counts the state database keeps, campaign-counting.ts).
 */
const groupedPasses = (statements: readonly string[]): string[] => statements.filter((sql) => /^\s*SELECT[\s\S]*FROM campaign_files[\s\S]*GROUP BY/.test(sql));

/**
 * Statements that read the campaign's whole set (or walk it): those on its files that do not name the files they
 * want (by a chunk's names, paths or targets, or the span between a chunk's first and last), nor ask for the last
 * rowid (where a chunk's new files start: StateDatabase.insertingMany).
 */
const wholeSetPasses = (statements: readonly string[]): string[] =>
  statements.filter(
    (sql) =>
      /^\s*SELECT[\s\S]*FROM campaign_files/.test(sql) &&
      !/json_each|relative_path = \?|target_path = \?|BETWEEN \? AND \?|^SELECT COALESCE\(MAX\(rowid\), 0\)/.test(sql) &&
      !isQuickCheck(sql),
  );

/**
 * The quick check's question whether the set has finished files (quick-check-pass.ts): its thread then reads them
 * on a connection of its own, beside these.
 */
const isQuickCheck = (sql: string): boolean => /^SELECT EXISTS \(SELECT 1 FROM campaign_files f JOIN jobs j[\s\S]*j\.state = 'done'\)$/.test(sql);

describe('what a campaign sync asks of the state database', () => {
  it("counts its report's figures (the total, each query's, duplicates) in one pass over the set", async () => {
    const h = await harness();
    const service = serviceOver(h);
    const folder = path.join(await temporaryFolder(), 'eclipse');
    const doubled = { ...KCOR_DAY, filters: { ...KCOR_DAY.filters, every: '4hours' } };
    const campaign = await service.create({ name: 'passes', folder, layout: '', queries: [KCOR_DAY, UCOMP_DAY, doubled] });
    h.engine.pauseAll();
    const { result: run, statements } = await statementsDuring(h, () => service.sync(campaign.name, h.engine));
    expect(groupedPasses(statements)).toHaveLength(1);
    const files = service.store.files(campaign.id);
    const kcor = files.filter((file) => file.instrument === 'kcor').length;
    const ucomp = files.filter((file) => file.instrument === 'ucomp').length;
    expect(run.report.queries.map((query) => [query.listed, query.queued])).toEqual([
      [kcor, kcor],
      [ucomp, ucomp],
      [run.report.duplicates, run.report.duplicates],
    ]);
    expect(run.report.duplicates).toBeGreaterThan(0);
    expect(run.report.total).toMatchObject({ listed: files.length, new: files.length, queued: files.length, onDisk: 0 });
  });

  it('passes over the whole set once in a first sync and once in a second sync with nothing new (beside the look at the disk), and downloads nothing then', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const folder = path.join(await temporaryFolder(), 'mirror');
    const campaign = await service.create({ name: 'once', folder, layout: '{yyyy}/{mm}/{dd}', queries: [KCOR_DAY, UCOMP_DAY] });
    const first = await statementsDuring(h, () => service.sync(campaign.name, h.engine));
    expect(wholeSetPasses(first.statements)).toHaveLength(1);
    expect(first.statements.filter(isQuickCheck)).toHaveLength(1);
    await h.engine.whenSettled();
    const files = service.store.files(campaign.id).length;
    expect(emulator().stats().downloadsCompleted).toBe(files);

    emulator().resetStats();
    const lookUps = vi.spyOn(h.ledger, 'findByTargets');
    const second = await statementsDuring(h, () => service.sync(campaign.name, h.engine));
    expect(wholeSetPasses(second.statements)).toHaveLength(1);
    expect(second.statements.filter(isQuickCheck)).toHaveLength(1);
    // Each chunk's files are read once, by their names (for moves), not again by their places.
    expect(second.statements.filter((sql) => /f\.relative_path IN \(SELECT value FROM json_each/.test(sql))).toEqual([]);
    // Files downloaded and still there join the run as they are: their jobs came with them, and are not looked up again.
    expect(lookUps).not.toHaveBeenCalled();
    await h.engine.whenSettled();
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(second.result.report.total).toMatchObject({ listed: files, new: 0, onDisk: files, queued: 0, missing: 0 });
    expect(second.result.report.differing).toEqual([]);
  });
});
