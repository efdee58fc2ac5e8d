// Entry of dist/bench/enqueue-probe.js: `node enqueue-probe.js JOB.json` streams a listing into a paused engine and
// prints what it measured as one JSON line (see enqueue-probe.ts).
import { readFile } from 'node:fs/promises';
import { runEnqueueProbe, type EnqueueProbeJob } from './enqueue-probe';

const jobFile = process.argv[2];
if (!jobFile) {
  console.error('usage: node enqueue-probe.js JOB.json');
  process.exit(2);
}
readFile(jobFile, 'utf8')
  .then(async (text) => {
    const result = await runEnqueueProbe(JSON.parse(text) as EnqueueProbeJob);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  })
  .catch((error: unknown) => {
    console.error(`enqueue-probe: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
