import { describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { CancelledError, InvalidInputError, InvalidResponseError, NetworkError, ServerError, UnknownUserError } from '../../../src-main/core/errors';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { oddServer, useEmulator } from '../../helpers/fixtures';

const emulator = useEmulator();

function client(settings: Partial<ConstructorParameters<typeof MlsoClient>[0]> = {}): { client: MlsoClient; requested: string[] } {
  const requested: string[] = [];
  return { client: new MlsoClient({ baseUrl: emulator().url, ...settings }, { log: (url) => requested.push(url) }), requested };
}

describe('catalogue endpoints', () => {
  it('reads /about', async () => {
    const about = await client().client.about();
    expect(about).toMatchObject({ homepage: 'https://www2.hao.ucar.edu/mlso', support: 'mlso_data_requests@ucar.edu' });
    expect(about.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lists instrument ids as the server orders them, and instruments sorted with their details', async () => {
    const { client: c } = client();
    expect(await c.instrumentIds()).toEqual(['ucomp', 'kcor']);
    const instruments = await c.instruments();
    expect(instruments.map((i) => i.id)).toEqual(['kcor', 'ucomp']);
    expect(instruments[0]).toMatchObject({
      id: 'kcor',
      name: 'COSMO K-Coronagraph (KCor)',
      doi: 'https://doi.org/10.5065/D69G5JV8',
      'start-date': '2013-09-30T18:57:54',
    });
    expect(instruments[1]!.name).toBe('Upgraded Coronal Multi-Polarimeter (UCoMP)');
  });

  it('asks endpoints 3 to 6 in their canonical form, with the trailing slash: one request each, no redirect first', async () => {
    const { client: c, requested } = client();
    await c.instrument('kcor');
    expect(requested).toEqual([`${emulator().url}/v1/instruments/kcor/`]);
    requested.length = 0;
    const listing = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' } });
    expect(requested).toEqual([
      `${emulator().url}/v1/instruments/kcor/products/pb/`,
      `${emulator().url}/v1/instruments/kcor/products/pb/files/?start-date=2025-03-24T21%3A03%3A00&end-date=2025-03-24T21%3A04%3A00&client=mlso-downloader`,
    ]);
    expect(listing.files.length).toBeGreaterThan(0);
  });

  it('still follows a redirect away from the trailing slash, for a service whose canonical form has none', async () => {
    const base = emulator().url;
    const server = await oddServer((req, res) => {
      const target = new URL(req.url ?? '/', base);
      if (target.pathname.endsWith('/')) {
        res.writeHead(308, { Location: `${target.pathname.slice(0, -1)}${target.search}` }).end();
        return;
      }
      void fetch(new URL(`${target.pathname}/${target.search}`, base)).then(async (answer) => {
        res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    try {
      const c = new MlsoClient({ baseUrl: server.url });
      expect((await c.instrument('kcor')).name).toBe('COSMO K-Coronagraph (KCor)');
      const listing = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' } });
      expect(listing.files.length).toBe(4);
    } finally {
      await server.close();
    }
  });

  it('lists products of both instruments and encodes ids such as nrgf+diff', async () => {
    const { client: c } = client();
    const kcor = await c.products('kcor');
    expect(kcor.products.map((p) => p.id)).toEqual(expect.arrayContaining(['pb', 'nrgf', 'pbavg', 'nrgf+diff', 'all']));
    const ucomp = await c.products('ucomp');
    expect(ucomp.products.map((p) => p.id)).toEqual(expect.arrayContaining(['l1', 'l2', 'density', 'all']));
    const metadata = await c.productMetadata('kcor', 'nrgf+diff');
    expect(metadata.id).toBe('nrgf+diff');
  });

  it('reads product metadata with its filters and formats', async () => {
    const { client: c } = client();
    expect(await c.productMetadata('kcor', 'pb')).toEqual({
      id: 'pb',
      title: 'pB',
      description: 'polarized brightness image',
      filters: ['start-date', 'end-date', 'cr', 'every'],
      formats: ['fits'],
    });
    expect((await c.productMetadata('ucomp', 'l2')).filters).toEqual(expect.arrayContaining(['wave-region', 'obs-plan']));
  });
});

describe('files endpoint', () => {
  it('returns the listing in date order, with download URLs carrying the client name', async () => {
    const { client: c } = client({ clientName: 'campaign-tool' });
    const listing = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' } });
    expect(listing).toMatchObject({ instrument: 'kcor', product: 'pb', 'start-date': '2025-03-24T21:03:00', 'end-date': '2025-03-24T21:04:00' });
    expect(listing.files.length).toBeGreaterThanOrEqual(3);
    const dates = listing.files.map((f) => f['date-obs']);
    expect([...dates].sort()).toEqual(dates);
    for (const file of listing.files) {
      expect(file.filename).toMatch(/^20250324_2103\d\d_kcor_l2_pb\.fts$/);
      expect(new URL(file.url).searchParams.get('client')).toBe('campaign-tool');
      expect(file['date-obs'] >= '2025-03-24T21:03:00' && file['date-obs'] < '2025-03-24T21:04:00').toBe(true);
    }
  });

  it('streams the same entries in batches, one batch at a time, and the rest of the answer at the end', async () => {
    const { client: c } = client();
    const request = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-20' } };
    const whole = await c.files(request);
    const streamed: string[] = [];
    let batches = 0;
    const sizes: number[] = [];
    let inside = false;
    const { listing, count } = await c.streamFiles(request, async (entries) => {
      // The next batch waits for this one: a slow consumer holds the reading back.
      expect(inside).toBe(false);
      inside = true;
      batches += 1;
      sizes.push(entries.length);
      for (const entry of entries) streamed.push(entry.filename);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inside = false;
    });
    expect(streamed).toEqual(whole.files.map((file) => file.filename));
    expect(count).toBe(whole.files.length);
    expect(batches).toBeGreaterThan(2);
    // The first entries go at once; the rest gather into batches of at least a thousand, but for the last.
    expect(sizes[0]).toBeLessThan(1000);
    expect(sizes.slice(1, -1).every((size) => size >= 1000)).toBe(true);
    expect(listing).toEqual({ ...whole, files: [] });
  });

  it('stops the idle and deadline clocks while a slow consumer holds the reading back', async () => {
    const { client: c } = client({ timeoutMs: 150, listingDeadlineMs: 400 });
    const request = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-22' } };
    let waited = 0;
    const { count } = await c.streamFiles(request, async () => {
      // Each pause is longer than the idle timeout, and together they pass the deadline.
      if (waited < 600) {
        waited += 200;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    });
    expect(waited).toBeGreaterThanOrEqual(600);
    expect(count).toBeGreaterThan(0);
  });

  it('passes a consumer’s own failure through as it is, not as a network error', async () => {
    const { client: c } = client();
    const mine = new Error('the output went away');
    const failure = await c
      .streamFiles({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } }, () => Promise.reject(mine))
      .catch((error: unknown) => error);
    expect(failure).toBe(mine);
  });

  it('ends as cancelled when the caller cancels while the consumer is busy, even if the consumer never settles', async () => {
    const { client: c } = client();
    const cancel = new AbortController();
    const failure = await c
      .streamFiles(
        { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } },
        () => {
          cancel.abort();
          return new Promise<void>(() => undefined);
        },
        { signal: cancel.signal },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CancelledError);
  });

  it('accepts both date forms and sends single-digit dates zero-padded', async () => {
    const { client: c, requested } = client();
    const day = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-3-24', every: '1hour' } });
    expect(requested.some((url) => url.includes('start-date=2025-03-24&'))).toBe(true);
    expect(day.files.length).toBeGreaterThan(2);
    expect(day.files.every((f) => f['date-obs'].startsWith('2025-03-24'))).toBe(true);
  });

  it('keeps one file per period with every', async () => {
    const { client: c } = client();
    const all = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-25' } });
    const hourly = await c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-25', every: '1hour' } });
    const hours = new Set(all.files.map((f) => f['date-obs'].slice(0, 13)));
    expect(hourly.files).toHaveLength(hours.size);
    expect(new Set(hourly.files.map((f) => f['date-obs'].slice(0, 13))).size).toBe(hours.size);
  });

  it('filters by Carrington rotation', async () => {
    const { client: c } = client();
    // 2025-03-24 lies in rotation 2295 (which began on 2025-03-02).
    const inside = await c.files({ instrument: 'kcor', product: 'pbextavg', filters: { cr: 2295 } });
    expect(inside.files.length).toBeGreaterThan(0);
    const outside = await c.files({ instrument: 'kcor', product: 'pbextavg', filters: { cr: 2200 } });
    expect(outside.files).toHaveLength(0);
  });

  it('filters UCoMP by wave region and observing plan, keeping fields the schema does not name', async () => {
    const { client: c } = client();
    const listing = await c.files({ instrument: 'ucomp', product: 'l2', filters: { 'wave-region': '789', 'start-date': '2025-03-24' } });
    expect(listing.files.length).toBeGreaterThan(0);
    for (const file of listing.files) {
      expect(file['wave-region']).toBe('789');
      expect(typeof file['obs-plan']).toBe('string');
      expect(typeof file['wavelengths']).toBe('number');
      expect(file.filename).toMatch(/^\d{8}\.\d{6}\.ucomp\.789\.l2\.fts$/);
    }
    const waves = await c.files({ instrument: 'ucomp', product: 'l2', filters: { 'obs-plan': 'waves', 'start-date': '2025-03-24' } });
    expect(waves.files.length).toBeGreaterThan(0);
    expect(waves.files.every((f) => String(f['obs-plan']).startsWith('waves'))).toBe(true);
  });

  it('refuses invalid filters before sending anything', async () => {
    const { client: c, requested } = client();
    await expect(c.files({ instrument: 'kcor', product: 'pb', filters: { every: 'often' } })).rejects.toThrow(InvalidInputError);
    await expect(c.files({ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-02-30' } })).rejects.toThrow(/real calendar/);
    expect(requested).toEqual([]);
  });

  it('refuses a filter the product metadata does not list, naming those it does', async () => {
    const { client: c, requested } = client();
    const attempt = c.files({ instrument: 'kcor', product: 'pb', filters: { 'wave-region': '789' } });
    await expect(attempt).rejects.toThrow('kcor pb does not accept the wave-region filter; it accepts start-date, end-date, cr, every.');
    expect(requested.some((url) => url.includes('/files'))).toBe(false);
  });

  it("reports the server's message for an unknown instrument or product", async () => {
    const { client: c } = client();
    const error = await c.products('nosuch').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(404);
    expect((error as ServerError).message).toContain('nosuch');
    await expect(c.productMetadata('kcor', 'nosuch')).rejects.toThrow(/404/);
  });

  it('uses the API version setting', async () => {
    const { client: c } = client({ apiVersion: 'v2' });
    await expect(c.about()).rejects.toMatchObject({ status: 404 });
  });
});

describe('authentication', () => {
  it('keeps the session cookie with its expiry', async () => {
    const { client: c } = client();
    expect(await c.sessionExpiry()).toBeUndefined();
    expect(await c.authenticate(DEMO_EMAIL)).toBe(`found username ${DEMO_EMAIL}`);
    const expiry = await c.sessionExpiry();
    expect(typeof expiry).toBe('number');
    expect(expiry as number).toBeGreaterThan(Date.now());
    await c.signOut();
    expect(await c.sessionExpiry()).toBeUndefined();
  });

  it("names the registration site for an unknown user, with the server's message", async () => {
    const { client: c } = client();
    const error = await c.authenticate('stranger@example.org').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownUserError);
    const unknown = error as UnknownUserError;
    expect(unknown.serverMessage).toBe('username stranger@example.org not found, sign up at https://registration.hao.ucar.edu');
    expect(unknown.registrationUrl).toBe('https://registration.hao.ucar.edu');
    expect(unknown.toData()).toMatchObject({ kind: 'unknown-user', registrationUrl: 'https://registration.hao.ucar.edu' });
  });

  it('refuses something that is not an e-mail without asking the server', async () => {
    const { client: c, requested } = client();
    await expect(c.authenticate('not an email')).rejects.toThrow(InvalidInputError);
    expect(requested).toEqual([]);
  });
});

describe('failures', () => {
  it('says it cannot reach a server that is down', async () => {
    const down = await oddServer(() => undefined);
    await down.close();
    const c = new MlsoClient({ baseUrl: down.url });
    const error = await c.about().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe('unreachable');
    expect((error as NetworkError).message).toContain(`Cannot reach ${down.url}`);
  });

  it('times out a server that never answers', async () => {
    const silent = await oddServer(() => undefined);
    try {
      const c = new MlsoClient({ baseUrl: silent.url, timeoutMs: 300 });
      await expect(c.about()).rejects.toMatchObject({ kind: 'network', reason: 'timeout' });
    } finally {
      await silent.close();
    }
  });

  it('refuses answers that are not the documented shape, keeping unknown fields otherwise', async () => {
    const odd = await oddServer((req, res) => {
      if (req.url === '/v1/about') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>maintenance</body></html>');
      else if (req.url === '/v1/instruments') res.writeHead(200, { 'content-type': 'application/json' }).end('{"instruments": 3}');
      else res.writeHead(500, { 'content-type': 'application/json' }).end('{"message": "database is down"}');
    });
    try {
      const c = new MlsoClient({ baseUrl: odd.url });
      await expect(c.about()).rejects.toThrow(InvalidResponseError);
      await expect(c.about()).rejects.toThrow(/expected JSON, got an HTML page/);
      await expect(c.instrumentIds()).rejects.toThrow(InvalidResponseError);
      await expect(c.products('kcor')).rejects.toThrow('The server answered 500: database is down');
    } finally {
      await odd.close();
    }
  });

  it('tidies the base URL and refuses one that is not http', () => {
    expect(new MlsoClient({ baseUrl: 'http://api.mlso.ucar.edu/v1/' }).settings.baseUrl).toBe('http://api.mlso.ucar.edu');
    expect(() => new MlsoClient({ baseUrl: 'ftp://x' })).toThrow(InvalidInputError);
    expect(() => new MlsoClient({ baseUrl: 'not a url' })).toThrow(/not a server address/);
  });
});
