// The app core against a hostile server, through the contract as the window calls it: malformed answers come back
// as ErrorData with one plain sentence naming what was wrong; a listing whose files are on another server is refused
// in EnqueueSummary.rejected, saying which setting allows it; with the setting on, the files are fetched from there
// and the session cookie never goes with them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { invokeHandler } from '../../src-main/core/app/invoke-handler';
import { applySettingsChange } from '../../src-main/core/app/settings-rules';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { coreHarness, type CoreHarness } from '../helpers/app-core-harness';
import { oddServer, useEmulator } from '../helpers/fixtures';
import { completedSearch } from '../helpers/kept-search';
import { otherServer } from '../helpers/other-server';

const emulator = useEmulator({ imageSize: 8 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' }; // 4 files

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function harness(baseUrl: string, allowOtherHosts = false): Promise<CoreHarness> {
  const h = await coreHarness(emulator(), { settings: { baseUrl, allowOtherHosts } });
  open.push({ close: () => h.core.close() });
  return h;
}

const ENTRY = {
  'date-obs': '2025-03-24T21:03:04',
  filename: '20250324_210304_kcor_l2_pb.fts',
  filesize: 10,
  instrument: 'kcor',
  product: 'pb',
  url: '/v1/download?filename=a.fts.gz',
};
const json = (res: ServerResponse, body: unknown): void => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** A server whose answers are each wrong in their own way. */
function malformed(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  if (url === '/v1/instruments') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in to the captive portal</body></html>');
  else if (url === '/v1/instruments/kcor/products/') json(res, { products: [{ id: 'pb', title: 5, description: 'pB' }] });
  else if (url === '/v1/instruments/kcor/products/pb/') json(res, { id: 'pb', title: 'pB', description: 'd', filters: ['start-date', 'end-date'] });
  else if (url.startsWith('/v1/instruments/kcor/products/pb/files/'))
    json(res, { instrument: 'kcor', product: 'pb', files: [ENTRY, { ...ENTRY, url: undefined }] });
  else if (url.startsWith('/v1/instruments/ucomp/products/l2/files/')) json(res, [ENTRY]);
  else if (url === '/v1/instruments/ucomp/products/l2/') json(res, { id: 'l2', title: 'L2', description: 'd' });
  else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
}

describe('the app, against answers of the wrong shape', () => {
  it('answers each request with invalid-response ErrorData that says in one sentence what was wrong', async () => {
    const server = await oddServer(malformed);
    open.push(server);
    const { core } = await harness(server.url);
    const problem = (detail: string) => ({
      ok: false,
      error: {
        kind: 'invalid-response',
        message: `The server at ${server.url} sent an answer this client does not understand (${detail}). Check the server address and API version.`,
      },
    });
    expect(await invokeHandler(core.handlers, 'catalog:instruments', undefined)).toEqual(problem('expected JSON, got an HTML page'));
    expect(await invokeHandler(core.handlers, 'catalog:products', { instrument: 'kcor' })).toEqual(problem('products[0].title should be text, not a number'));
    expect(await invokeHandler(core.handlers, 'search:start', { instrument: 'kcor', product: 'pb', filters: window })).toEqual(
      problem('files[1].url is missing'),
    );
    expect(await invokeHandler(core.handlers, 'search:start', { instrument: 'ucomp', product: 'l2', filters: {} })).toEqual(
      problem('the answer should be an object, not a list'),
    );
  });
});

describe('the app, with a listing whose files are on another server', () => {
  it('refuses them in the enqueue summary, naming the setting; with the setting on, fetches them without the cookie', async () => {
    const other = await otherServer(emulator);
    open.push(other);
    emulator().setOptions({ publicBaseUrl: other.url });

    const refusing = await harness(emulator().url);
    await refusing.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const listing = await completedSearch(refusing.core.handlers, { instrument: 'kcor', product: 'pb', filters: window });
    const summary = await refusing.core.handlers['downloads:enqueue']({ searchId: listing.searchId });
    expect(summary.queued).toBe(0);
    expect(summary.rejected).toEqual(
      listing.files.map((file) => ({
        filename: file.filename,
        reason: `The file's address is on another server (${new URL(other.url).host}); MLSO Downloader only downloads from ${new URL(emulator().url).host}. To allow it, turn on "Allow downloads from other servers" in Settings.`,
      })),
    );
    expect(other.requests).toEqual([]);

    const allowing = await harness(emulator().url);
    await allowing.core.handlers['settings:update']({ allowOtherHosts: true });
    await allowing.core.handlers['session:sign-in']({ email: DEMO_EMAIL });
    const again = await completedSearch(allowing.core.handlers, { instrument: 'kcor', product: 'pb', filters: window });
    expect(await allowing.core.handlers['downloads:enqueue']({ searchId: again.searchId })).toMatchObject({ queued: again.files.length, rejected: [] });
    await expect.poll(async () => (await allowing.core.handlers['downloads:snapshot']()).overall.done, { timeout: 10_000 }).toBe(again.files.length);
    expect(other.requests).toHaveLength(again.files.length);
    expect(other.requests.every((request) => request.cookie === undefined)).toBe(true);
  });

  it('refuses a value for the setting that is not true or false, naming it', async () => {
    const { core } = await harness(emulator().url);
    const refused = await invokeHandler(core.handlers, 'settings:update', { allowOtherHosts: 'yes' });
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid-input' } });
    expect((refused as { error: { message: string } }).error.message).toMatch(/Allow downloads from other servers/i);
    // The settings rules hold on their own too (a front end that skips the schema gets no coerced "yes").
    expect(() => applySettingsChange(defaultSettings('/data'), { allowOtherHosts: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ kind: 'invalid-input', field: 'allowOtherHosts' }),
    );
    expect(applySettingsChange(defaultSettings('/data'), {}).allowOtherHosts).toBe(false);
  });
});
