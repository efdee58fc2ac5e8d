// `mlso-dl mock-server` as users start it: the start-up line names where it really listens, and its control
// endpoints refuse other web sites. Needs the built command line (node scripts/build-main.mjs).
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-shared/api/service-facts';
import { startMockServer, stopBuiltCli } from '../helpers/built-cli';

afterEach(async () => {
  await stopBuiltCli();
});

describe('mlso-dl mock-server', () => {
  it('says plainly that --host 0.0.0.0 listens on every interface, and gives the address to use here', async () => {
    const { banner } = await startMockServer(['--image-size', '16', '--host', '0.0.0.0']);
    const match = /^MLSO API emulator listening on all interfaces \(0\.0\.0\.0\), port (\d+); on this computer: (http:\/\/127\.0\.0\.1:(\d+))$/.exec(banner);
    expect(match, banner).not.toBeNull();
    expect(match![3]).toBe(match![1]);
    expect((await fetch(`${match![2]}/v1/about`)).status).toBe(200);
  });

  it('names its loopback address and real port by default, and refuses a control request from another site', async () => {
    const { banner } = await startMockServer(['--image-size', '16']);
    const url = /^MLSO API emulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(banner)?.[1];
    expect(url, banner).toBeDefined();
    expect(url).not.toMatch(/:0$/);
    const evil = await fetch(`${url}/__emulator/options`, {
      method: 'POST',
      headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain' },
      body: '{"imageSize": 16384}',
    });
    expect(evil.status).toBe(403);
    const options = await fetch(`${url}/__emulator/options`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(((await options.json()) as { imageSize: number }).imageSize).toBe(16);
  });

  it('honours Range on downloads by default and sends every file whole with --no-byte-ranges', async () => {
    for (const [args, status] of [
      [[], 206],
      [['--no-byte-ranges'], 200],
    ] as const) {
      const { banner } = await startMockServer(['--image-size', '16', ...args]);
      const url = /(http:\/\/127\.0\.0\.1:\d+)$/.exec(banner)?.[1];
      const options = await fetch(`${url}/__emulator/options`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      expect(((await options.json()) as { byteRanges: boolean }).byteRanges).toBe(status === 206);
      const signIn = await fetch(`${url}/v1/authenticate?username=${encodeURIComponent(DEMO_EMAIL)}`);
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const listing = (await (
        await fetch(`${url}/v1/instruments/kcor/products/pb/files/?start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:01:00`)
      ).json()) as { files: { url: string }[] };
      const answer = await fetch(listing.files[0]!.url, { headers: { Cookie: cookie, Range: 'bytes=10-', 'Accept-Encoding': 'identity' } });
      expect(answer.status, args.join(' ')).toBe(status);
      await answer.body?.cancel();
      await stopBuiltCli();
    }
  });
});
