// Bundles the download benchmark (scripts/bench/) with esbuild into dist/bench/bench.js, like build-main.mjs
// does for the CLI, plus the Node baseline's worker as its own small bundle (so the baseline's memory is a plain
// downloader's, not the benchmark's). Run with `npm run bench`; it is never part of `npm test`.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: {
    'bench/bench': 'scripts/bench/main.ts',
    'bench/node-get-worker': 'scripts/bench/node-get-worker-main.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
