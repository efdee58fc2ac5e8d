// docs/benchmarks.md is made from the bench's committed record (bench/results.json, `npm run bench -- --record`)
// and its dated earlier measurements, never edited by hand, so the figures on the page are the recorded ones.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchmarksMarkdown, benchmarksMarkdownAt, DOC_FILE } from '../../scripts/bench/benchmarks-doc.mjs';
import { mergeRecorded, type Measurement, type RecordedResults } from '../../scripts/bench/recorded-results';

const root = path.resolve(import.meta.dirname, '../..');

const measurement = (overrides: Partial<Measurement>): Measurement => ({
  measuredAt: '2026-12-07T06:20:00.000Z',
  commit: 'f657cca00',
  node: 'v24.0.0',
  platform: 'linux 6.1.0 x64',
  cpus: 2,
  loadAverage: { before: [3.5, 2, 1.25], after: [4, 2.5, 1.5] },
  runs: 1,
  quick: false,
  seconds: 12.5,
  table: ['a | b', '1 | 2'],
  ...overrides,
});

it(`${DOC_FILE} is exactly what the committed record makes`, async () => {
  const committed = await readFile(path.join(root, DOC_FILE), 'utf8');
  expect(committed, `${DOC_FILE} differs from the record: run \`node scripts/bench-docs.mjs\` and commit the page`).toBe(await benchmarksMarkdownAt(root));
});

describe('the record', () => {
  const parts = [
    { name: 'startup', describe: 'start-up' },
    { name: 'reuse', describe: 'reuse, now described anew' },
    { name: 'verify', describe: 'verify' },
  ];
  const previous: RecordedResults = {
    usage: ['old usage'],
    parts: [
      { name: 'startup', describe: 'start-up', latest: measurement({ commit: 'old' }) },
      { name: 'reuse', describe: 'reuse', latest: measurement({ commit: 'old' }) },
      { name: 'gone', describe: 'a section since removed', latest: measurement({ commit: 'old' }) },
    ],
  };

  it("takes this run's parts, keeps the others' earlier figures and drops parts the bench no longer has", () => {
    const merged = mergeRecorded(previous, parts, 'new\nusage', new Map([['startup', measurement({ commit: 'new' })]]));
    expect(merged.usage).toEqual(['new', 'usage']);
    expect(merged.parts.map((part) => [part.name, part.describe, part.latest?.commit])).toEqual([
      ['startup', 'start-up', 'new'],
      ['reuse', 'reuse, now described anew', 'old'],
      ['verify', 'verify', undefined],
    ]);
  });

  it('puts each table on the page with its date, commit, Node and the load it was measured under', () => {
    const page = benchmarksMarkdown(mergeRecorded(undefined, parts, 'usage', new Map([['reuse', measurement({ quick: true })]])), '## Earlier\n');
    expect(page).toContain('| `reuse` | reuse, now described anew | [2026-12-07](#reuse) |');
    expect(page).toContain('| `verify` | verify | not recorded yet |');
    expect(page).toContain('Measured 2026-12-07 06:20 UTC on commit `f657cca00`, Node v24.0.0, linux 6.1.0 x64, 2 CPUs; 1 run with --quick');
    expect(page).toContain('Load average (1, 5, 15 minutes) 3.50 / 2.00 / 1.25 as it began and 4.00 / 2.50 / 1.50 as it ended');
    expect(page).toContain('```text\na | b\n1 | 2\n```');
    expect(page.endsWith('## Earlier\n')).toBe(true);
  });
});
