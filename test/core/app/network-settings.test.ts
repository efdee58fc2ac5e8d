// The Settings fields of issue 34 through the app core, as the desktop app and web mode use it: the speed cap
// reaches transfers already running, the proxy "system" asks the desktop's resolver (Electron's session in the app)
// and goes through the proxy it names, a change to "direct" goes around it, and the demo server is never proxied.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../../src-shared/api/service-facts';
import { invokeHandler } from '../../../src-main/core/app/invoke-handler';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { useEmulator } from '../../helpers/fixtures';
import { completedSearch } from '../../helpers/kept-search';
import { startForwardProxy, stopForwardProxies } from '../../helpers/forward-proxy';
import { waitFor } from '../../helpers/wait-for';

// KCor images of 1024 x 1024: some 2.8 MB each as sent.
const emulator = useEmulator({ imageSize: 1024, zeroFilesizeRate: 0, bodyForm: 'gzip-body' });
const open: CoreHarness[] = [];

async function harness(options: Parameters<typeof coreHarness>[1] = {}): Promise<CoreHarness> {
  const opened = await coreHarness(emulator(), options);
  open.push(opened);
  return opened;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
  stopForwardProxies();
});

const ONE_FILE = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:00:10' } };

describe('the speed cap in Settings', () => {
  it('holds a transfer already running to the cap, and lifting it lets the transfer finish at full speed', async () => {
    const cap = 64 * 1024;
    const { core } = await harness({ settings: { limitRate: '64K' } });
    await core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const listing = await completedSearch(core.handlers, ONE_FILE);
    expect(listing.files).toHaveLength(1);
    await core.handlers['downloads:enqueue']({ searchId: listing.searchId });
    const received = async (): Promise<number> => (await core.handlers['downloads:snapshot']()).jobs[0]?.bytesReceived ?? 0;
    await waitFor(async () => (await received()) > 64 * 1024, 'the transfer to be under way');
    const start = { bytes: await received(), at: performance.now() };
    await waitFor(async () => (await received()) > start.bytes + 2 * cap, 'two seconds of capped transfer', 10_000);
    const rate = ((await received()) - start.bytes) / ((performance.now() - start.at) / 1000);
    expect(rate).toBeLessThan(cap * 1.25);

    await core.handlers['settings:update']({ limitRate: '' });
    // Over 2.5 MB were still to come: at the cap that is some 40 s more.
    await waitFor(async () => (await core.handlers['downloads:snapshot']()).overall.done === 1, 'the file to finish once the cap is lifted', 5_000);
  }, 30_000);

  it('refuses a speed it cannot read, and a SOCKS proxy, naming the field', async () => {
    const { core } = await harness();
    expect(await invokeHandler(core.handlers, 'settings:update', { limitRate: 'fast' })).toMatchObject({
      ok: false,
      error: {
        kind: 'invalid-input',
        field: 'limitRate',
        message: '"fast" is not a speed. Use a speed such as 5M, 5MB/s or 500K (bytes per second), or leave it empty for no cap.',
      },
    });
    expect(await invokeHandler(core.handlers, 'settings:update', { proxy: 'socks5://127.0.0.1:1080' })).toMatchObject({
      ok: false,
      error: { kind: 'invalid-input', field: 'proxy' },
    });
    expect(await core.handlers['settings:update']({ limitRate: ' 5MB/s ', proxy: ' direct ' })).toMatchObject({ limitRate: '5MB/s', proxy: 'direct' });
  });
});

describe('the proxy in Settings', () => {
  it('"system" goes through the proxy the system names for each address; "direct" goes around it', async () => {
    const proxy = await startForwardProxy();
    const asked: string[] = [];
    const { core } = await harness({
      settings: { proxy: 'system' },
      systemProxy: async (url) => {
        asked.push(url);
        return `PROXY 127.0.0.1:${proxy.port}; DIRECT`;
      },
    });
    await core.handlers['catalog:instruments']();
    expect(asked).toContain(`${emulator().url}/v1/instruments`);
    const through = await proxy.requests();
    expect(through).toContain(`GET ${emulator().url}/v1/instruments HTTP/1.1`);

    await core.handlers['settings:update']({ proxy: 'direct' });
    await core.handlers['catalog:products']({ instrument: 'kcor' });
    expect(await proxy.requests()).toEqual(through);
  });

  it('never sends the demo server, which runs inside the app, through a proxy', async () => {
    const proxy = await startForwardProxy();
    await proxy.kill();
    const { core } = await harness({ settings: { proxy: proxy.url, useDemoServer: true } });
    expect((await core.handlers['catalog:instruments']()).length).toBeGreaterThan(0);
    await core.handlers['settings:update']({ useDemoServer: false });
    expect(await invokeHandler(core.handlers, 'catalog:instruments', undefined)).toMatchObject({
      ok: false,
      error: {
        kind: 'network',
        message: `Cannot reach the proxy ${proxy.url} (ECONNREFUSED). Check the proxy address (the proxy setting, or HTTPS_PROXY and HTTP_PROXY), then try again.`,
      },
    });
  });
});
