// Bundles the Node side (the command line, the Electron main process and its preload) with esbuild.
import { build } from 'esbuild';
import { nodeBundle } from './node-bundle-options.mjs';

await build({ ...nodeBundle, entryPoints: { 'cli/mlso-dl': 'src-main/cli/main.ts' } });

// The Electron main process (package.json "main"); Electron 45 loads ESM entry points and bundles Node 22.
await build({ ...nodeBundle, entryPoints: { 'electron/main': 'src-main/electron/main.ts' }, target: 'node22', external: ['electron'] });

// The preload runs sandboxed, where require() knows only 'electron': everything else is bundled in, as CommonJS.
const { packages: _allBundled, ...preloadBundle } = nodeBundle;
await build({
  ...preloadBundle,
  entryPoints: { 'electron/preload': 'src-main/electron/preload.ts' },
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  target: 'node22',
  external: ['electron'],
  sourcemap: 'inline',
});
