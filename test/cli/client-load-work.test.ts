// What the client's bundled packages run as they load, in every command that asks the server. V8's own coverage
// (NODE_V8_COVERAGE, written as the process ends) counts the calls of each function of the bundle, and esbuild wraps
// each bundled CommonJS file in a function named after its path, so a package file that never ran has the count 0.
// Needs the built command line (node scripts/build-main.mjs).
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator();

/** Runs the built mlso-dl with V8's coverage on; the calls of each function of dist/cli named after a bundled file. */
async function bundledFilesRun(args: readonly string[]): Promise<{ status: number | null; stdout: string; calls: Map<string, number> }> {
  const folder = await temporaryFolder();
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_V8_COVERAGE: folder } });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const calls = new Map<string, number>();
  for (const name of await readdir(folder)) {
    const { result } = JSON.parse(await readFile(path.join(folder, name), 'utf8')) as {
      result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
    };
    for (const script of result.filter(({ url }) => url.includes('/dist/cli/'))) {
      for (const fn of script.functions) {
        if (fn.functionName.startsWith('node_modules/')) calls.set(fn.functionName, (calls.get(fn.functionName) ?? 0) + fn.ranges[0]!.count);
      }
    }
  }
  return { status, stdout, calls };
}

describe("the client's packages as they load", () => {
  it("a command that asks the server does not read the MIME types' database (form-data's, for uploads mlso-dl never makes)", async () => {
    const run = await bundledFilesRun(['--base-url', emulator().url, 'instruments']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('kcor');
    // The count sees the run: the client's packages did load.
    expect(run.calls.get('node_modules/form-data/lib/form_data.js')).toBe(1);
    expect([...run.calls].filter(([file, count]) => /^node_modules\/mime-(db|types)\//.test(file) && count > 0)).toEqual([]);
  });
});
