// Entry of dist/bench/node-get-worker.js: `node node-get-worker.js JOB.json` runs the Node baseline's downloads
// and prints {batchSeconds, bytes} as one JSON line.
import { runNodeGetWorker } from './node-get-worker';

const jobFile = process.argv[2];
if (!jobFile) {
  console.error('usage: node node-get-worker.js JOB.json');
  process.exit(2);
}
runNodeGetWorker(jobFile).catch((error: unknown) => {
  console.error(`node-get-worker: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
