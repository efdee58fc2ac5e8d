// Entry of dist/bench/campaign-million-probe.js: `node campaign-million-probe.js JOB.json` runs one sync of the
// million-file campaign and prints what it measured as one JSON line (see campaign-million-probe.ts).
import { readFile } from 'node:fs/promises';
import { runCampaignProbe, type CampaignProbeJob } from './campaign-million-probe';

const jobFile = process.argv[2];
if (!jobFile) {
  console.error('usage: node campaign-million-probe.js JOB.json');
  process.exit(2);
}
readFile(jobFile, 'utf8')
  .then(async (text) => {
    const result = await runCampaignProbe(JSON.parse(text) as CampaignProbeJob);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  })
  .catch((error: unknown) => {
    console.error(`campaign-million-probe: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
