// The real executable, as a user runs it: `mlso-dl mock-server` in one process, downloads in another.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { bin, runBuiltCli } from '../helpers/built-cli';
import { listFolder, temporaryFolder } from '../helpers/fixtures';

let server: ChildProcessWithoutNullStreams;
let url: string;

beforeAll(async () => {
  server = spawn(process.execPath, [bin, 'mock-server', '--port', '0', '--image-size', '64']);
  const lines = createInterface({ input: server.stdout });
  url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
    server.on('exit', (code) => reject(new Error(`mock-server exited with ${code}`)));
  });
}, 30_000);

afterAll(() => {
  server?.kill('SIGINT');
});

describe('the mlso-dl executable', () => {
  it('downloads into a new folder, then finds nothing left to do', async () => {
    const folder = path.join(await temporaryFolder(), 'out');
    const args = [
      '--base-url',
      url,
      'files',
      '-i',
      'kcor',
      '-p',
      'pb',
      '-s',
      '2025-03-24',
      '--every',
      '1hour',
      '--download',
      '--username',
      DEMO_EMAIL,
      '--output-dir',
      folder,
    ];
    const first = await runBuiltCli(args);
    expect(first.stderr).toMatch(/Downloaded \d+ files/);
    expect(first.status).toBe(0);
    const names = await listFolder(folder);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) expect((await readFile(path.join(folder, name))).subarray(0, 9).toString()).toBe('SIMPLE  =');
    const second = await runBuiltCli(args);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`Downloaded 0 files .* skipped ${names.length} already complete`));
  });

  it('exits 2 for bad input and 1 for an unreachable server, in one plain line', async () => {
    const bad = await runBuiltCli(['--base-url', url, 'files', '-i', 'kcor', '-p', 'pb', '--every', 'sometimes']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const down = await runBuiltCli(['--base-url', 'http://127.0.0.1:9', 'about']);
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/^mlso-dl: Cannot reach http:\/\/127\.0\.0\.1:9( \(ECONNREFUSED\))?\. Check the address/);
  });

  it('stops the emulator cleanly on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
