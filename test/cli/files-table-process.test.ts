// The files table and --json as the built mlso-dl prints them through a pipe, compared byte for byte with
// test/fixtures/listing-columns/, which the command line printed against the same emulator before the table's
// columns came from listing-columns.ts (the emulator's listings are the same on every run).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPiped, startMockServer, stopBuiltCli } from '../helpers/built-cli';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/listing-columns');
let url: string;

beforeAll(async () => {
  const { banner } = await startMockServer();
  url = /listening on (http:\/\/\S+)$/.exec(banner)![1]!;
});

afterAll(async () => {
  await stopBuiltCli();
});

describe('the files table of the built mlso-dl', () => {
  it.each([
    ['ucomp-l2-every-2hours.txt', ['files', '-i', 'ucomp', '-p', 'l2', '-s', '2025-03-24', '--every', '2hours']],
    ['ucomp-l2-every-2hours-quiet.txt', ['-q', 'files', '-i', 'ucomp', '-p', 'l2', '-s', '2025-03-24', '--every', '2hours']],
    ['kcor-pb-every-3hours.txt', ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '--every', '3hours']],
    ['ucomp-l2-every-6hours.json', ['files', '-i', 'ucomp', '-p', 'l2', '-s', '2025-03-24', '--every', '6hours', '--json']],
  ])('prints %s', async (fixture, args) => {
    const run = await runPiped(['--base-url', url, ...args], 'cat');
    expect(run.statuses, run.stderr).toEqual([0, 0]);
    // The download addresses hold the emulator's port, which differs from run to run.
    expect(run.output.toString().replaceAll(url, 'BASE_URL')).toBe(await readFile(path.join(FIXTURES, fixture), 'utf8'));
  });
});
