// Links from the web and campaign files from the desktop, checked by a real core against the emulator's catalogue
// over HTTP: what passes reaches the window as an app:open-request event (a search to fill in, a file to offer for
// import); what does not is refused in one line and the window hears nothing. Nothing is queued or written either way.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_OPENED_CAMPAIGN_BYTES, mayFetchCampaignFrom } from '../../../src-main/core/app/open-requests';
import { coreHarness, type CoreHarness } from '../../helpers/app-core-harness';
import { oddServer, temporaryFolder, useEmulator } from '../../helpers/fixtures';

const emulator = useEmulator({ imageSize: 32 });
const open: CoreHarness[] = [];
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.core.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function harness(baseUrl = emulator().url): Promise<CoreHarness> {
  const h = await coreHarness(emulator(), { settings: { baseUrl } });
  open.push(h);
  return h;
}

const openRequests = (h: CoreHarness) => h.events.filter((e) => e.event === 'app:open-request').map((e) => e.payload);

const CAMPAIGN_TEXT = JSON.stringify({
  format: 'mlso-campaign',
  version: 1,
  name: 'eclipse',
  layout: '',
  queries: [{ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } }],
});

describe('a link from the web', () => {
  it('fills a search the catalogue knows, with the filters the product takes', async () => {
    const h = await harness();
    const check = await h.core.openLink('mlso-downloader://search?instrument=ucomp&product=l2&start-date=2025-03-24&wave-region=1074');
    const request = { kind: 'search', query: { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24', 'wave-region': '1074' } } };
    expect(check).toEqual({ ok: true, request });
    expect(openRequests(h)).toEqual([request]);
    expect((await h.core.handlers['downloads:snapshot']()).overall.total).toBe(0);
  });

  it.each([
    ['mlso-downloader://search?instrument=sdo&product=aia', 'the observatory has no instrument "sdo"'],
    ['mlso-downloader://search?instrument=kcor&product=l2', 'kcor has no product "l2"'],
    ['mlso-downloader://search?instrument=kcor&product=pb&wave-region=1074', 'does not accept the wave-region filter'],
    ['mlso-downloader://import?url=https://evil.example/eclipse.mlso-campaign.json', "evil.example is not one of the observatory's servers"],
    ['mlso-downloader://import?url=http://mlso.hao.ucar.edu/eclipse.mlso-campaign.json', "mlso.hao.ucar.edu is not one of the observatory's servers"],
  ])('refuses %s in one line, telling the window nothing', async (link, why) => {
    const h = await harness();
    const check = await h.core.openLink(link);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(why);
    expect(openRequests(h)).toEqual([]);
  });

  it('offers a campaign file fetched from the server in use; refuses a redirect away and a file over the cap', async () => {
    const files = await oddServer((req, res) => {
      if (req.url === '/eclipse.mlso-campaign.json') return res.end(CAMPAIGN_TEXT);
      if (req.url === '/moved.mlso-campaign.json') return res.writeHead(302, { location: 'https://evil.example/x.mlso-campaign.json' }).end();
      res.writeHead(200, { 'content-type': 'application/json' });
      // Sent without a length, so only counting the bytes finds it too large.
      const piece = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent <= MAX_OPENED_CAMPAIGN_BYTES && !res.destroyed) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    });
    servers.push(files);
    const h = await harness(files.url);
    const link = (name: string) => `mlso-downloader://import?url=${encodeURIComponent(`${files.url}/${name}`)}`;
    expect(await h.core.openLink(link('eclipse.mlso-campaign.json'))).toEqual({
      ok: true,
      request: { kind: 'import', source: `${files.url}/eclipse.mlso-campaign.json`, text: CAMPAIGN_TEXT },
    });
    expect(await h.core.openLink(link('moved.mlso-campaign.json'))).toMatchObject({ ok: false, message: expect.stringContaining('could not be fetched') });
    expect(await h.core.openLink(link('huge.mlso-campaign.json'))).toMatchObject({ ok: false, message: expect.stringContaining('is over 64 MB') });
    expect(openRequests(h)).toHaveLength(1);
    expect(await h.core.handlers['campaigns:list']()).toEqual([]);
  });

  it('takes campaign files from the observatory over https only', () => {
    const server = 'http://api.mlso.ucar.edu';
    expect(mayFetchCampaignFrom(new URL('https://mlso.hao.ucar.edu/a.mlso-campaign.json'), server)).toBe(true);
    expect(mayFetchCampaignFrom(new URL('https://www.mlso.ucar.edu/a.mlso-campaign.json'), server)).toBe(true);
    expect(mayFetchCampaignFrom(new URL('http://api.mlso.ucar.edu/a.mlso-campaign.json'), server)).toBe(true);
    expect(mayFetchCampaignFrom(new URL('https://evilhao.ucar.edu/a.mlso-campaign.json'), server)).toBe(false);
    expect(mayFetchCampaignFrom(new URL('https://hao.ucar.edu.evil.example/a.mlso-campaign.json'), server)).toBe(false);
  });
});

describe('a campaign file opened from the desktop', () => {
  it('is offered for import with its text; anything else is refused', async () => {
    const h = await harness();
    const folder = await temporaryFolder();
    const file = path.join(folder, 'eclipse.mlso-campaign.json');
    await writeFile(file, CAMPAIGN_TEXT);
    expect(await h.core.openCampaignFile(file)).toEqual({ ok: true, request: { kind: 'import', source: file, text: CAMPAIGN_TEXT } });
    expect(await h.core.openCampaignFile(path.join(folder, 'notes.txt'))).toMatchObject({
      ok: false,
      message: 'notes.txt is not a campaign file (*.mlso-campaign.json).',
    });
    expect(await h.core.openCampaignFile(path.join(folder, 'gone.mlso-campaign.json'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('could not be read'),
    });
    expect(openRequests(h)).toHaveLength(1);
    expect(await h.core.handlers['campaigns:list']()).toEqual([]);
  });
});
