// What every Node-side esbuild bundle of this project shares: the project root, dist/ as output, Node as
// the platform, and dependencies left external (native modules such as better-sqlite3 load from node_modules).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const nodeBundle = {
  absWorkingDir: projectRoot,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22.12',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};
