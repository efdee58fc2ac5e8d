// mlso-dl behind an institute's proxy, as users run it: the built command line, the proxy named by HTTP_PROXY,
// HTTPS_PROXY or --proxy, a real forward proxy (Debian's tinyproxy) with the emulator behind it. Every request goes
// through the proxy (its log counts them), https through a CONNECT tunnel, NO_PROXY goes around it, a proxy that
// cannot be reached or wants a password is one plain message, and a proxy killed mid-file leaves a file the next
// run resumes. Needs the built command line and tinyproxy.
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isResumeFileName } from '../../src-main/core/downloads/resume-file';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { makeThrowawayTls, type ThrowawayTls } from '../../src-main/emulator/throwaway-tls';
import { downloadArgs } from '../core/downloads/cli-process';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { startForwardProxy, stopForwardProxies } from '../helpers/forward-proxy';
import { waitFor } from '../helpers/wait-for';

const emulator = useEmulator();
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

/** The test's environment without any proxy variable of its own, plus `extra`. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(https?|all|no)_proxy$/i.test(key)));
  return { ...env, ...extra };
}

afterEach(async () => {
  await stopBuiltCli();
  stopForwardProxies();
});

async function download(baseUrl: string, env: NodeJS.ProcessEnv, ...extra: string[]) {
  const folder = await temporaryFolder();
  const stateFolder = await temporaryFolder();
  const run = await runBuiltCli(downloadArgs({ baseUrl, window, folder, stateFolder }, ...extra), env);
  return { ...run, folder };
}

describe('mlso-dl through a forward proxy (http)', () => {
  it('sends every request through HTTP_PROXY', async () => {
    const proxy = await startForwardProxy();
    const files = await listing(emulator(), window);
    emulator().resetStats();
    const run = await download(emulator().url, envWith({ HTTP_PROXY: proxy.url }));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);
    await expectExactFolder(emulator(), run.folder, files);
    const requests = await proxy.requests();
    expect(requests.length).toBeGreaterThan(files.length);
    expect(requests.every((line) => line.startsWith(`GET ${emulator().url}/`))).toBe(true);
    expect(requests).toHaveLength(emulator().stats().requests);
  });

  it('goes around the proxy for a host NO_PROXY names', async () => {
    const proxy = await startForwardProxy();
    const files = await listing(emulator(), window);
    const run = await download(emulator().url, envWith({ HTTP_PROXY: proxy.url, ALL_PROXY: proxy.url, no_proxy: '127.0.0.1' }));
    expect(run.status).toBe(0);
    await expectExactFolder(emulator(), run.folder, files);
    expect(await proxy.requests()).toEqual([]);
  });

  it('--proxy direct goes around the proxy the environment names', async () => {
    const proxy = await startForwardProxy();
    const run = await runBuiltCli(['--base-url', emulator().url, '--proxy', 'direct', 'instruments'], envWith({ HTTP_PROXY: proxy.url }));
    expect(run.status).toBe(0);
    expect(await proxy.requests()).toEqual([]);
  });

  it('a proxy that cannot be reached is one plain message', async () => {
    const proxy = await startForwardProxy();
    await proxy.kill();
    const run = await runBuiltCli(['--base-url', emulator().url, 'instruments'], envWith({ http_proxy: `http://someone:hunter2@127.0.0.1:${proxy.port}` }));
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toBe(
      `mlso-dl: Cannot reach the proxy http://127.0.0.1:${proxy.port} (ECONNREFUSED). Check the proxy address (the proxy setting, or HTTPS_PROXY and HTTP_PROXY), then try again.`,
    );
  });

  it('a proxy that wants a password is one plain message; with it in the address, it lets requests through', async () => {
    const proxy = await startForwardProxy({ basicAuth: { user: 'scientist', password: 'hunter2' } });
    const refused = await runBuiltCli(['--base-url', emulator().url, '--proxy', proxy.url, 'instruments']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim()).toBe(
      `mlso-dl: The proxy ${proxy.url} asks for a user name and password. Put them in the proxy address (http://user:password@host:port), or check the ones there.`,
    );
    const wrong = await runBuiltCli([
      '--base-url',
      emulator().url,
      '--verbose',
      '--proxy',
      `http://scientist:wrong-secret@127.0.0.1:${proxy.port}`,
      'instruments',
    ]);
    // tinyproxy answers a wrong password with 401 as if it were the server (a proxy should say 407): only the secret is checked.
    expect(wrong.status).not.toBe(0);
    expect(wrong.stdout + wrong.stderr).not.toContain('wrong-secret');
    const signedIn = await runBuiltCli([
      '--base-url',
      emulator().url,
      '--verbose',
      '--proxy',
      `http://scientist:hunter2@127.0.0.1:${proxy.port}`,
      'instruments',
    ]);
    expect(signedIn.stderr).toContain(`GET ${emulator().url}/v1/instruments through the proxy ${proxy.url}\n`);
    expect(signedIn.stderr).not.toContain('hunter2');
    expect(signedIn.stdout).not.toContain('hunter2');
    expect(signedIn.status).toBe(0);
  });
});

async function resumeFileSize(folder: string): Promise<number> {
  const kept = (await readdir(folder)).filter(isResumeFileName);
  if (kept.length === 0) return 0;
  return (await stat(path.join(folder, kept[0]!))).size;
}

describe('a proxy dropped mid-file', () => {
  it('leaves the file to resume as a dropped server does: the retry asks only for the rest', async () => {
    // One 2048x2048 image (about 11 MB gzipped) at 1 MB/s, so the proxy is killed mid-body.
    emulator().setOptions({ imageSize: 2048, bandwidthBytesPerSecond: 1_000_000, bodyForm: 'gzip-body' });
    const oneFile = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:00:10' };
    const files = await listing(emulator(), oneFile);
    expect(files).toHaveLength(1);
    const folder = await temporaryFolder();
    const stateFolder = await temporaryFolder();
    const args = downloadArgs({ baseUrl: emulator().url, window: oneFile, folder, stateFolder }, '--retry-delay', '2s');
    const proxy = await startForwardProxy();
    const run = startBuiltCli(args, { env: envWith({ HTTP_PROXY: proxy.url }) });
    await waitFor(async () => {
      if (run.child.exitCode !== null) throw new Error(`mlso-dl ended before the transfer was under way: ${run.stderr()}`);
      return (await resumeFileSize(folder)) > 300_000;
    }, 'part of the file to arrive');
    await proxy.kill();
    emulator().setOptions({ bandwidthBytesPerSecond: 0 });
    // The proxy comes back where it was, as a restarted one does: the retry goes through it.
    const again = await startForwardProxy({ port: proxy.port });
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    const resumedFrom = emulator().stats().partialStartsByFile[files[0]!.filename] ?? [];
    expect(resumedFrom).toHaveLength(1);
    expect(resumedFrom[0]).toBeGreaterThan(300_000);
    expect((await again.requests()).some((line) => line.startsWith('GET ') && line.includes(files[0]!.filename))).toBe(true);
    await expectExactFolder(emulator(), folder, files);
  });
});

describe('mlso-dl through a forward proxy (https)', () => {
  let tls: ThrowawayTls;
  let secure: RunningEmulator;
  beforeAll(async () => {
    tls = await makeThrowawayTls(await mkdtemp(path.join(tmpdir(), 'mlso-test-tls-')));
    secure = await createEmulator({}, tls);
  });
  afterAll(async () => {
    await secure?.close();
  });

  it('sends every connection through a CONNECT tunnel of HTTPS_PROXY', async () => {
    const proxy = await startForwardProxy();
    // The same catalogue as the plain emulator's (same options): its listing says what the run must bring.
    const files = await listing(emulator(), window);
    secure.resetStats();
    const run = await download(secure.url, envWith({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.caFile }));
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.status).toBe(0);
    await expectExactFolder(secure, run.folder, files);
    const requests = await proxy.requests();
    const host = new URL(secure.url).host;
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((line) => line === `CONNECT ${host} HTTP/1.1`)).toBe(true);
    // Each connection the server accepted is one of the proxy's tunnels: none came straight from the client.
    expect(requests).toHaveLength(secure.stats().connectionsOpened);
  });

  it("a proxy that refuses the tunnel is one plain message, not the server's answer", async () => {
    const proxy = await startForwardProxy({ connectPorts: [443] });
    const run = await runBuiltCli(['--base-url', secure.url, 'instruments'], envWith({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.caFile }));
    expect(run.status).not.toBe(0);
    expect(run.stderr.trim()).toBe(
      `mlso-dl: The proxy ${proxy.url} refused to connect to ${new URL(secure.url).host} (403). Ask whoever runs the proxy, or set the server in NO_PROXY (or the proxy to "direct") if it can be reached without it.`,
    );
  });

  it('refuses a server whose certificate the client was not told to trust', async () => {
    const run = await runBuiltCli(['--base-url', secure.url, 'instruments'], envWith({}));
    expect(run.status).not.toBe(0);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(/Cannot reach/);
  });
});
