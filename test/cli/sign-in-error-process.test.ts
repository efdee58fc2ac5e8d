// What the built mlso-dl says, through a real pipe, when the e-mail it downloads with is not registered: one
// sentence on stderr and a failing status; naming the registration site once, or on the demo server the e-mail it takes.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_HEADER } from '../../src-shared/api/service-facts';
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

/**
 * The emulator as the real service answers: every request passed on, the demo e-mail header dropped (the real service
 * never sends it).
 */
async function startServerWithoutDemoHeader(): Promise<{ server: Server; url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(new URL(request.url ?? '/', 'http://x').pathname);
    const upstream = httpRequest(`${url}${request.url ?? '/'}`, { method: request.method, headers: request.headers }, (answer) => {
      const { [DEMO_EMAIL_HEADER]: _demo, ...headers } = answer.headers;
      response.writeHead(answer.statusCode ?? 502, headers);
      answer.on('error', () => response.destroy());
      answer.pipe(response);
    });
    upstream.on('error', () => response.destroy());
    request.on('error', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths };
}

function downloadAs(baseUrl: string, email: string): string[] {
  const query = ['files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24T18:00:00', '-e', '2025-03-24T18:01:00'];
  return ['--base-url', baseUrl, ...query, '-d', '-u', email, '-o', folder, '--state-dir', path.join(folder, 'state')];
}

describe('an unknown e-mail on the command line', () => {
  it('is told in one sentence where to register, by a server that is not the demo', async () => {
    const plain = await startServerWithoutDemoHeader();
    try {
      const run = await runPiped(downloadAs(plain.url, 'nobody@example.org'), 'cat');
      expect(plain.paths).toContain('/v1/authenticate');
      expect(run.statuses[0]).toBe(1);
      expect(run.stderr).toBe(
        'mlso-dl: nobody@example.org is not registered with the observatory: register it at https://registration.hao.ucar.edu, then sign in again.\n',
      );
    } finally {
      await new Promise((resolve) => plain.server.close(resolve));
    }
  });

  it('is told the e-mail the demo server takes, on the demo server', async () => {
    const run = await runPiped(downloadAs(url, 'nobody@example.org'), 'cat');
    expect(run.statuses[0]).toBe(1);
    expect(run.stderr).toBe(
      'mlso-dl: nobody@example.org is not registered on the demo server: sign in as demo@example.com (accounts for the real service are made at https://registration.hao.ucar.edu).\n',
    );
  });
});
