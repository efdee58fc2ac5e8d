// What the built mlso-dl says, through a real pipe, when the e-mail it downloads with is not registered: one
// sentence naming the registration site once, on stderr, and a failing status.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPiped, startMockServer, stopBuiltCli } from '../helpers/built-cli';

let url: string;
let folder: string;

beforeAll(async () => {
  const { banner } = await startMockServer();
  url = /listening on (http:\/\/\S+)$/.exec(banner)![1]!;
  folder = await mkdtemp(path.join(os.tmpdir(), 'mlso-sign-in-'));
});

afterAll(async () => {
  await stopBuiltCli();
  await rm(folder, { recursive: true, force: true });
});

describe('an unknown e-mail on the command line', () => {
  it('is told in one sentence where to register', async () => {
    const args = ['--base-url', url, 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T18:00:00', '-e', '2025-03-24T18:01:00'];
    const run = await runPiped([...args, '-d', '-u', 'nobody@example.org', '-o', folder, '--state-dir', path.join(folder, 'state')], 'cat');
    expect(run.statuses[0]).toBe(1);
    expect(run.stderr).toBe(
      'mlso-dl: nobody@example.org is not registered with the observatory: register it at https://registration.hao.ucar.edu, then sign in again.\n',
    );
  });
});
