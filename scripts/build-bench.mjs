// Bundles the download benchmark (scripts/bench/) into dist/bench/bench.js, like build-main.mjs does for the
// CLI, plus the Node baseline's worker as its own small bundle (so the baseline's memory is a plain
// downloader's, not the benchmark's). Run with `npm run bench`; it is never part of `npm test`.
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle-options.mjs';

await build({
  ...nodeBundle,
  entryPoints: {
    'bench/bench': 'scripts/bench/main.ts',
    'bench/node-get-worker': 'scripts/bench/node-get-worker-main.ts',
    'bench/enqueue-probe': 'scripts/bench/enqueue-probe-main.ts',
    'bench/campaign-million-probe': 'scripts/bench/campaign-million-probe-main.ts',
    'bench/search-stall-probe': 'scripts/bench/search-stall-probe-main.ts',
  },
});
