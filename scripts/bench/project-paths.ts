// Where things are, found from the running bundle (dist/bench/bench.js) rather than the current directory, so
// `node dist/bench/bench.js` works from anywhere.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ProjectPaths {
  root: string;
  /** The mlso-dl entry a user runs. */
  cliBin: string;
  /** The Node baseline's bundle, built next to this one. */
  nodeGetWorker: string;
  /** The enqueue measurement's bundle, likewise. */
  enqueueProbe: string;
  resultsFile: string;
  /** The renderer's build, served by web mode for the UI measurement. */
  rendererFolder: string;
}

export function projectPaths(): ProjectPaths {
  const benchBundle = fileURLToPath(import.meta.url);
  const root = findRoot(path.dirname(benchBundle));
  return {
    root,
    cliBin: path.join(root, 'bin', 'mlso-dl.js'),
    nodeGetWorker: path.join(path.dirname(benchBundle), 'node-get-worker.js'),
    enqueueProbe: path.join(path.dirname(benchBundle), 'enqueue-probe.js'),
    resultsFile: path.join(root, 'dist', 'bench', 'last-run.json'),
    rendererFolder: path.join(root, 'dist', 'renderer'),
  };
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mlso-downloader') return dir;
    if (path.dirname(dir) === dir) throw new Error(`no mlso-downloader package.json above ${from}`);
  }
}
