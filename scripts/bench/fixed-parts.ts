// The parts of the benchmark that run before the sections (main.ts), named for the record (--record) and the
// progress log; `--skip-...` flags leave them out and `--only` runs none of them.
import type { PartDescription } from './recorded-results';

export const FIXED_PARTS = {
  startup: { name: 'startup', describe: 'mlso-dl --version and files --help, next to a bare node -e ""' },
  batch: {
    name: 'batch',
    describe:
      '60 KCor-sized files (20 with --quick) over a 40 ms, 25 MiB/s-per-connection link against the link limit and generic downloaders, then the whole process against a plain-Node floor and the shell way, by wall and CPU time',
  },
  big: { name: 'big', describe: 'one 256 MiB file, then 5 at once, with peak RSS' },
  listing: { name: 'listing', describe: '100,000 entries through a pipe, files --json and the table' },
  enqueue: { name: 'enqueue', describe: 'the same listing streamed into a paused download engine (skipped with --skip-listing too)' },
  campaign: { name: 'campaign', describe: '5,000 files synced, synced again (nothing to fetch), verified and exported' },
  soak: { name: 'soak', describe: 'about 5,000 files synced through 10 % faults, RSS and open descriptors sampled every 250 ms' },
  ui: { name: 'ui', describe: 'the results table under a 100,000-file listing (web mode in Chromium)' },
  quicklook: { name: 'quicklook', describe: 'the quick-look of a 1024 x 1024 float image, click to pixels (web mode in Chromium)' },
} as const satisfies Record<string, PartDescription>;
