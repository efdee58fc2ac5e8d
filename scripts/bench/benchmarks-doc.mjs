// docs/benchmarks.md, made whole from the bench's committed record (bench/results.json) and the dated earlier
// measurements (bench/earlier-measurements.md). The bench writes it with --record; scripts/bench-docs.mjs
// rewrites it by hand; test/docs/benchmarks-doc.unit.test.ts fails when the committed page differs.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const RESULTS_FILE = 'bench/results.json';
const EARLIER_FILE = 'bench/earlier-measurements.md';
export const DOC_FILE = 'docs/benchmarks.md';

const cell = (text) => text.replaceAll('|', '\\|');
const loads = (values) => values.map((value) => value.toFixed(2)).join(' / ');

function measuredLine(latest) {
  const runs = `${latest.runs} run${latest.runs === 1 ? '' : 's'}${latest.quick ? ' with --quick' : ''}`;
  return [
    `Measured ${latest.measuredAt.slice(0, 16).replace('T', ' ')} UTC on commit \`${latest.commit}\`, Node ${latest.node}, ${latest.platform}, ${latest.cpus} CPUs; ${runs}; the part took ${latest.seconds} s.`,
    `Load average (1, 5, 15 minutes) ${loads(latest.loadAverage.before)} as it began and ${loads(latest.loadAverage.after)} as it ended: the machine is shared, so a high load means slower figures.`,
  ].join('\n');
}

/** The page, from the parsed record and the earlier measurements' Markdown. */
export function benchmarksMarkdown(results, earlier) {
  const recorded = results.parts.filter((part) => part.latest);
  return [
    '# Benchmarks',
    '',
    `<!-- Written by the bench from ${RESULTS_FILE} (\`npm run bench -- --record\`) and ${EARLIER_FILE}; edit those, not this page. -->`,
    '',
    '`npm run bench` measures mlso-dl against the bundled emulator and prints tables. It measures and reports; it',
    'never fails on a slow number, and it is never part of `npm test`.',
    '',
    '## How to run',
    '',
    '```text',
    ...results.usage,
    '```',
    '',
    'With `--record`, the parts that ran replace their tables in `bench/results.json` and this page is written again',
    'from it; commit both with the change they measure. The other parts keep their earlier figures and dates. Run one',
    'part at a time (`--only NAME` for a section, `--skip-...` for the fixed parts) on a quiet machine where you can: the',
    'load average is recorded beside every table. `node scripts/bench-docs.mjs` writes this page again from the record',
    'alone, and `test/docs/benchmarks-doc.unit.test.ts` fails when the committed page is not what the record makes.',
    '',
    '## What each part measures',
    '',
    '| Part | What it measures | Latest figures |',
    '|---|---|---|',
    ...results.parts.map(
      (part) =>
        `| \`${part.name}\` | ${cell(part.describe)} | ${part.latest ? `[${part.latest.measuredAt.slice(0, 10)}](#${part.name})` : 'not recorded yet'} |`,
    ),
    '',
    '## Latest figures',
    '',
    ...(recorded.length === 0 ? ['Nothing is recorded yet.', ''] : []),
    ...recorded.flatMap((part) => [`### ${part.name}`, '', `${part.describe}.`, '', measuredLine(part.latest), '', '```text', ...part.latest.table, '```', '']),
    earlier.trimEnd(),
    '',
  ].join('\n');
}

/** Reads the record and the earlier measurements under `root`; the page they make. */
export async function benchmarksMarkdownAt(root) {
  const results = JSON.parse(await readFile(path.join(root, RESULTS_FILE), 'utf8'));
  const earlier = await readFile(path.join(root, EARLIER_FILE), 'utf8');
  return benchmarksMarkdown(results, earlier);
}

export async function writeBenchmarksDoc(root) {
  await writeFile(path.join(root, DOC_FILE), await benchmarksMarkdownAt(root));
}
