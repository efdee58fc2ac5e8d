// Bundles the Node side (the command line, the Electron main process and its preload) with esbuild.
// Dependencies stay external so native modules (better-sqlite3) load from node_modules.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  absWorkingDir: root,
  entryPoints: { 'cli/mlso-dl': 'src-main/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});

// The Electron main process (package.json "main"); Electron 45 loads ESM entry points and bundles Node 22.
await build({
  absWorkingDir: root,
  entryPoints: { 'electron/main': 'src-main/electron/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  external: ['electron'],
  sourcemap: 'linked',
  logLevel: 'warning',
});

// The preload runs sandboxed, where require() knows only 'electron': everything else is bundled in, as CommonJS.
await build({
  absWorkingDir: root,
  entryPoints: { 'electron/preload': 'src-main/electron/preload.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  external: ['electron'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
