// Which builds `npm start` runs: only those whose outputs are missing or older than their inputs, so a start
// right after `npm install` (which built the command line) builds the renderer alone.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

interface BuildStep {
  inputs: string[];
  outputs: string[];
}
const script = path.resolve(import.meta.dirname, '../../scripts/start.mjs');
const { BUILD_STEPS, isStale } = (await import(script)) as { BUILD_STEPS: BuildStep[]; isStale: (step: BuildStep, root: string) => boolean };
const [nodeBuild, rendererBuild] = BUILD_STEPS as [BuildStep, BuildStep];

let root = '';
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'start-steps-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeAt(file: string, seconds: number): Promise<void> {
  const full = path.join(root, file);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, '');
  await utimes(full, seconds, seconds);
}

describe('npm start builds', () => {
  it('after npm install, only the renderer', async () => {
    await writeAt('src-main/cli/main.ts', 1_000);
    await writeAt('src-shared/contract.ts', 1_000);
    await writeAt('src-renderer/App.svelte', 1_000);
    await writeAt('package.json', 1_000);
    for (const output of nodeBuild.outputs) await writeAt(output, 2_000);
    expect(isStale(nodeBuild, root)).toBe(false);
    expect(isStale(rendererBuild, root)).toBe(true);
  });

  it('nothing once every output is newer than its inputs', async () => {
    await writeAt('src-renderer/App.svelte', 1_000);
    for (const output of [...nodeBuild.outputs, ...rendererBuild.outputs]) await writeAt(output, 2_000);
    expect(isStale(nodeBuild, root)).toBe(false);
    expect(isStale(rendererBuild, root)).toBe(false);
  });

  it('again what a changed source feeds', async () => {
    for (const output of [...nodeBuild.outputs, ...rendererBuild.outputs]) await writeAt(output, 2_000);
    await writeAt('src-shared/filters/filter-table.ts', 3_000);
    expect(isStale(nodeBuild, root)).toBe(true);
    expect(isStale(rendererBuild, root)).toBe(true);
  });

  it('the step one of whose outputs is missing', async () => {
    await writeAt('src-main/cli/main.ts', 1_000);
    for (const output of nodeBuild.outputs.slice(1)) await writeAt(output, 2_000);
    expect(isStale(nodeBuild, root)).toBe(true);
  });
});
