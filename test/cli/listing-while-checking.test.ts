// A listing with filters needs the product's own list of filters (its metadata) to check them against, and the
// listing itself: two round trips. The listing is asked for while the metadata is on its way, not after it, and
// nothing of it is handed over before the filters are known to be accepted. A proxy holds the metadata's answer
// until the listing's request arrives (or a few seconds pass), so the order shows without any timing.
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { runCli } from '../../src-main/cli/run-cli';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { Capture, listFolder, oddServer, temporaryFolder, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator({ imageSize: 8 });
const window = ['-s', '2025-03-24T18:00:00', '-e', '2025-03-24T18:05:00'];

interface MetadataHoldingProxy {
  url: string;
  events: string[];
  close(): Promise<void>;
}

/**
 * Forwards to the emulator; the product metadata's answer waits for a listing request (or `holdMs`), and with
 * `acceptOnly` names only those filters (a product that does not accept them all).
 */
async function metadataHoldingProxy(target: string, acceptOnly?: string[], holdMs = 3_000): Promise<MetadataHoldingProxy> {
  const events: string[] = [];
  let listingArrived: () => void = () => undefined;
  const listingSeen = new Promise<string>((resolve) => {
    listingArrived = () => resolve('listing');
    setTimeout(() => resolve('timeout'), holdMs).unref();
  });
  const proxy = await oddServer((req, res) => {
    res.on('error', () => undefined);
    const url = req.url ?? '/';
    const kind = /\/products\/[^/]+\/files\/?(\?|$)/.test(url) ? 'listing' : /\/products\/[^/?]+\/?$/.test(url) ? 'metadata' : 'other';
    events.push(`${kind}:start`);
    if (kind === 'listing') listingArrived();
    const upstream = httpRequest(new URL(url, target), { method: req.method, headers: req.headers }, (answer) => {
      void (async () => {
        if (kind === 'metadata') events.push(`metadata:released by ${await listingSeen}`);
        if (kind === 'metadata' && acceptOnly) {
          const chunks: Buffer[] = [];
          for await (const chunk of answer) chunks.push(chunk as Buffer);
          const body = JSON.stringify({ ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as object), filters: acceptOnly });
          res.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
          return;
        }
        if (kind === 'listing') res.on('finish', () => events.push('listing:end'));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      })();
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { url: proxy.url, events, close: proxy.close };
}

let proxy: MetadataHoldingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

async function run(args: string[], acceptOnly?: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  proxy = await metadataHoldingProxy(emulator().url, acceptOnly);
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await runCli(['--base-url', proxy.url, ...args], { stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

describe('a listing with filters is asked for while the product metadata is on its way', () => {
  it('files --json: the listing request goes out before the metadata is answered, and the listing is whole', async () => {
    const listed = await run(['files', '-i', 'kcor', '-p', 'pb', ...window, '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(proxy!.events).toContain('metadata:released by listing');
    const files = (JSON.parse(listed.stdout) as { files: { filename: string }[] }).files;
    expect(files.length).toBeGreaterThanOrEqual(18);
  });

  it('files --download: the same, and every file arrives', async () => {
    const folder = await temporaryFolder();
    const state = await temporaryFolder();
    const args = ['-q', 'files', '-i', 'kcor', '-p', 'pb', ...window, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', state];
    const downloaded = await run(args);
    expect(downloaded.status, downloaded.stderr).toBe(0);
    expect(proxy!.events).toContain('metadata:released by listing');
    expect((await listFolder(folder)).length).toBeGreaterThanOrEqual(18);
  });

  it('a filter the product turns out not to accept: its plain message alone (exit 2), nothing of the listing printed or fetched', async () => {
    const acceptOnly = ['start-date', 'end-date'];
    const refused = await run(['files', '-i', 'kcor', '-p', 'pb', ...window, '--every', '1hour', '--json'], acceptOnly);
    expect(proxy!.events).toContain('metadata:released by listing');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^mlso-dl: .*does not accept the every filter; it accepts start-date, end-date\.\n$/);
    expect(refused.stdout).toBe('');
    const folder = await temporaryFolder();
    const state = await temporaryFolder();
    const args = ['-q', 'files', '-i', 'kcor', '-p', 'pb', ...window, '--every', '1hour', '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', state];
    const download = await run(args, acceptOnly);
    expect(download.status).toBe(2);
    expect(download.stderr).toMatch(/^mlso-dl: .*does not accept the every filter/);
    expect(download.stderr.trim().split('\n')).toHaveLength(1);
    expect(await listFolder(folder)).toEqual([]);
    expect(emulator().stats().downloadsStarted).toBe(0);
  });

  it('a filter beyond the dates (wave region) is still checked before anything is listed', async () => {
    const refused = await run(['files', '-i', 'kcor', '-p', 'pb', ...window, '--wave-region', '789', '--json']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/does not accept the wave-region filter/);
    expect(proxy!.events).toEqual(['metadata:start', 'metadata:released by timeout']);
  }, 10_000);
});
