// Re-checks the mutants a Stryker report says survived (or no test covered) with plain vitest, one at a time:
//   node scripts/mutation/recheck-survivors.mjs reports/mutation/<name>.json [--part 1/2] [--out recheck.json]
// (--part i/n takes every n-th mutant from the i-th: run n processes, one per core, to share the work.)
// Why: with Stryker's vitest runner a mutant its tests kill is sometimes recorded as Survived (stryker-js #6073,
// #6192; seen here with download-file.ts:93). Each mutant is applied to a private copy of the tree and the module's
// focused tests run on it (bail at the first failure); a failure is a kill. Slow suites (the engine, the faults)
// are in the focused list only for the modules they exist for. Prints one line per mutant and a score per module.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const D = 'test/core/downloads/';
const S = 'test/core/state/';
/** The tests that exercise each module most directly, fastest first. */
const FOCUSED = {
  'download-file.ts': [`${D}download-file-answers.unit.test.ts`, `${D}download-file.test.ts`, `${D}read-only-folder.test.ts`, `${D}error-page-sign-in.test.ts`],
  'gzip-layers.ts': ['test/hostile/gzip-layers-properties.test.ts', `${D}gzip-layers.test.ts`, `${D}download-file-answers.unit.test.ts`],
  'listing-enqueuer.ts': [
    `${D}listing-enqueuer.test.ts`,
    `${D}listing-enqueuer-paths.unit.test.ts`,
    `${D}listing-enqueuer-hosts.test.ts`,
    'test/core/campaigns/campaign-sync.test.ts',
  ],
  'folder-errors.ts': [
    'test/core/folder-errors.unit.test.ts',
    `${D}read-only-folder.test.ts`,
    `${D}download-folder.test.ts`,
    'test/core/campaigns/campaign-backups.test.ts',
  ],
  'disk-space.ts': [`${D}listing-enqueuer.test.ts`, `${D}download-engine.test.ts`],
  'fits-layout-guard.ts': [`${D}fits-layout-guard.unit.test.ts`, `${D}fits-layout-faults.test.ts`, `${D}download-file.test.ts`],
  'fits-completeness.ts': [`${D}fits-completeness.unit.test.ts`, `${D}download-file.test.ts`],
  'fits-signature.ts': [`${D}download-file.test.ts`],
  'existing-files.ts': [`${D}existing-files.unit.test.ts`],
  'temporary-files.ts': [`${D}download-file.test.ts`, `${D}ledger-and-recovery.unit.test.ts`],
  'file-sink.ts': [`${D}file-sink.unit.test.ts`, `${D}flush-before-rename.test.ts`],
  'failure-decision.ts': [`${D}failure-decision.unit.test.ts`],
  'retry-policy.ts': [`${D}retry-policy.test.ts`],
  'run-tally.ts': [`${D}run-tally.unit.test.ts`, `${D}run-progress.test.ts`],
  'speed-meter.ts': [`${D}speed-meter.unit.test.ts`],
  'cost-bounded-value.ts': [`${D}cost-bounded-value.unit.test.ts`],
  'session-keeper.ts': [`${D}session-keeper.unit.test.ts`, `${D}error-page-sign-in.test.ts`],
  'job-views.ts': [`${D}estimate-seconds-left.unit.test.ts`, `${D}run-progress.test.ts`],
  'crash-recovery.ts': [`${D}ledger-and-recovery.unit.test.ts`],
  'progress-board.ts': [`${D}progress-board.unit.test.ts`, `${D}run-progress.test.ts`],
  'state-lock.ts': [`${S}state-lock.unit.test.ts`, `${S}state-lock.test.ts`],
  'state-folder.ts': [`${S}state-folder.unit.test.ts`],
  'sqlite-errors.ts': [`${S}sqlite-errors.unit.test.ts`, `${D}damaged-ledger.test.ts`],
  'download-folder.ts': [`${D}download-folder.test.ts`],
  'ledger-recovery.ts': [`${S}ledger-recovery.unit.test.ts`, `${D}damaged-ledger.test.ts`, `${D}ledger-and-recovery.unit.test.ts`],
  'ledger-schema.ts': [`${D}ledger-and-recovery.unit.test.ts`, `${D}damaged-ledger.test.ts`],
  'state-migrations.ts': [`${S}state-migrations.unit.test.ts`, `${S}old-ledgers.unit.test.ts`, `${D}ledger-and-recovery.unit.test.ts`],
  'state-database.ts': [
    `${S}state-migrations.unit.test.ts`,
    `${S}old-ledgers.unit.test.ts`,
    `${D}download-ledger.unit.test.ts`,
    `${D}ledger-and-recovery.unit.test.ts`,
    `${D}damaged-ledger.test.ts`,
  ],
  'open-state-folder.ts': [
    'test/core/campaigns/campaign-backups.test.ts',
    `${D}damaged-ledger.test.ts`,
    `${D}ledger-and-recovery.unit.test.ts`,
    `${D}download-folder.test.ts`,
  ],
  'download-ledger.ts': [`${D}download-ledger.unit.test.ts`, `${D}ledger-and-recovery.unit.test.ts`],
  'download-engine.ts': [
    `${D}engine-controls.test.ts`,
    `${D}download-engine.test.ts`,
    `${D}batch-pause.test.ts`,
    `${D}run-progress.test.ts`,
    `${D}error-page-sign-in.test.ts`,
    `${D}read-only-folder.test.ts`,
    `${D}ledger-and-recovery.unit.test.ts`,
    'test/faults/fault-suite.test.ts',
  ],
};

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
}

const reportFile = process.argv[2];
if (!reportFile || !existsSync(reportFile)) {
  console.error('Give the JSON report of a Stryker run, e.g. reports/mutation/mutation.json.');
  process.exit(2);
}
const outFile = option('--out', undefined);
const report = JSON.parse(readFileSync(reportFile, 'utf8'));

/** Character offset of a Stryker location (1-based line, 1-based column) in `source`. */
function offsetOf(source, { line, column }) {
  let offset = 0;
  for (let at = 1; at < line; at += 1) offset = source.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

const jobs = [];
for (const [file, entry] of Object.entries(report.files)) {
  const relative = path.isAbsolute(file) ? path.relative(ROOT, file) : file;
  for (const mutant of entry.mutants) {
    if (mutant.status !== 'Survived' && mutant.status !== 'NoCoverage') continue;
    const start = offsetOf(entry.source, mutant.location.start);
    const original = entry.source.slice(start, offsetOf(entry.source, mutant.location.end));
    jobs.push({ relative, reportSource: entry.source, start, original, mutant });
  }
}
const [partIndex, partCount] = option('--part', '1/1').split('/').map(Number);
const mine = jobs.filter((_, index) => index % partCount === partIndex - 1);
console.log(`${mine.length} of the ${jobs.length} surviving or uncovered mutants to re-check`);

/** A private copy of what the tests need, sharing node_modules. */
function workTree() {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'mutation-recheck-'));
  const tree = path.join(parent, 'main');
  mkdirSync(tree);
  for (const item of ['src-main', 'src-shared', 'src-science', 'test', 'scripts', 'vitest.mutation.config.ts', 'tsconfig.json', 'package.json']) {
    cpSync(path.join(ROOT, item), path.join(tree, item), { recursive: true });
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  // Tests find the shared reference documents beside the project, as in CI.
  const shared = path.resolve(ROOT, '../shared');
  if (existsSync(shared)) symlinkSync(shared, path.join(parent, 'shared'));
  return { parent, tree };
}

async function recheck(job, tree) {
  const target = path.join(tree, job.relative);
  const current = readFileSync(path.join(ROOT, job.relative), 'utf8');
  // The module may have changed since the report: the mutant goes where its original text now is, nearest its old place.
  let at = job.start;
  if (current !== job.reportSource) {
    const places = [];
    for (let found = current.indexOf(job.original); found >= 0 && job.original; found = current.indexOf(job.original, found + 1)) places.push(found);
    if (places.length === 0) return 'Gone';
    at = places.reduce((best, place) => (Math.abs(place - job.start) < Math.abs(best - job.start) ? place : best));
  }
  const mutated = current.slice(0, at) + job.mutant.replacement + current.slice(at + job.original.length);
  const tests = FOCUSED[path.basename(job.relative)] ?? [];
  if (tests.length === 0) return 'NoFocusedTests';
  writeFileSync(target, mutated);
  try {
    return (await runVitest(tree, tests)) ? 'Survived' : 'Killed';
  } finally {
    writeFileSync(target, current);
  }
}

const TIMEOUT_MS = 300_000;

/**
 * Runs the focused tests; true when they pass. A mutant that hangs them past the timeout is detected, as Stryker
 * counts it. vitest runs in a process group of its own, and the whole group is killed on a timeout: killing only
 * npx would leave vitest and its workers running (a hung mutant's worker spun for minutes after the re-check
 * ended). vitest that cannot be started at all says nothing about the mutant, and must not count as a kill.
 */
function runVitest(tree, tests) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['vitest', 'run', '-c', 'vitest.mutation.config.ts', '--bail', '1', ...tests], {
      cwd: tree,
      env,
      stdio: 'ignore',
      detached: true,
    });
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group has already gone.
      }
    };
    const timer = setTimeout(killGroup, TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Could not run vitest: ${error.message}`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      killGroup(); // workers vitest left behind
      resolve(code === 0);
    });
  });
}

const results = [];
const { parent, tree } = workTree();
for (const job of mine) {
  const verdict = await recheck(job, tree);
  const { line } = job.mutant.location.start;
  results.push({
    file: job.relative,
    line,
    mutator: job.mutant.mutatorName,
    original: job.original,
    replacement: job.mutant.replacement,
    stryker: job.mutant.status,
    verdict,
  });
  console.log(
    `${results.length}/${mine.length} ${verdict.padEnd(8)} ${path.basename(job.relative)}:${line} ${job.mutant.mutatorName} -> ${JSON.stringify(job.mutant.replacement).slice(0, 60)}`,
  );
  if (outFile) writeFileSync(outFile, JSON.stringify(results, null, 1));
}
rmSync(parent, { recursive: true, force: true });
const byModule = new Map();
for (const { file, verdict } of results) {
  const counts = byModule.get(file) ?? { killed: 0, not: 0 };
  counts[verdict === 'Killed' ? 'killed' : 'not'] += 1;
  byModule.set(file, counts);
}
for (const [file, { killed, not }] of byModule) console.log(`${path.basename(file).padEnd(24)} ${killed} killed, ${not} not`);
const killed = results.filter((result) => result.verdict === 'Killed').length;
console.log(`Re-checked ${results.length}: ${killed} killed, ${results.length - killed} not.`);
