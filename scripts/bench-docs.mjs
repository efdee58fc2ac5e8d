// `node scripts/bench-docs.mjs`: writes docs/benchmarks.md again from bench/results.json and
// bench/earlier-measurements.md (the bench does it itself after `npm run bench -- --record`).
import { DOC_FILE, writeBenchmarksDoc } from './bench/benchmarks-doc.mjs';
import { projectRoot } from './node-bundle-options.mjs';

try {
  await writeBenchmarksDoc(projectRoot);
  console.log(`wrote ${DOC_FILE}`);
} catch (error) {
  console.error(`bench-docs: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
