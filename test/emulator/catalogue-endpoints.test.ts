import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { json, rawGet } from './http-helpers';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await createEmulator();
});
afterAll(() => emulator.close());

describe('catalogue endpoints', () => {
  it('answers /v1/about with the documented object as JSON', async () => {
    const { status, body, headers } = await json(emulator, '/v1/about');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(body).toEqual({
      documentation: 'https://mlso-api-client.readthedocs.io/en/latest/',
      homepage: 'https://www2.hao.ucar.edu/mlso',
      support: 'mlso_data_requests@ucar.edu',
      version: '1.0.0',
    });
  });

  it('lists instrument ids unsorted, as the real service does', async () => {
    expect((await json(emulator, '/v1/instruments')).body).toEqual(['ucomp', 'kcor']);
  });

  it('describes KCor and UCoMP, ending at their last synthetic file', async () => {
    const kcor = (await json(emulator, '/v1/instruments/kcor/')).body;
    expect(Object.keys(kcor)).toEqual(['dates', 'doi', 'landing-page', 'name']);
    expect(kcor.name).toBe('COSMO K-Coronagraph (KCor)');
    expect(kcor.doi).toBe('https://doi.org/10.5065/D69G5JV8');
    expect(kcor['landing-page']).toBe('https://www2.hao.ucar.edu/mlso/instruments/cosmo-k-coronagraph-k-cor');
    expect(kcor.dates['start-date']).toBe('2013-09-30T18:57:54');
    expect(kcor.dates['end-date']).toMatch(/^2025-03-24T2[01]:\d\d:\d\d$/);

    const all = (await json(emulator, '/v1/instruments/kcor/products/all/files/')).body.files;
    expect(kcor.dates['end-date']).toBe(all.at(-1)['date-obs']);

    const ucomp = (await json(emulator, '/v1/instruments/ucomp/')).body;
    expect(ucomp.name).toBe('Upgraded Coronal Multi-Polarimeter (UCoMP)');
    expect(ucomp.dates['start-date']).toBe('2021-07-15T17:31:43');
    expect(ucomp.dates['end-date']).toMatch(/^2025-03-24T2[1-3]:\d\d:\d\d$/);
    expect(ucomp.doi).toMatch(/^https:\/\/doi\.org\//);
  });

  it('lists the KCor products with their documented titles and descriptions', async () => {
    const { products } = (await json(emulator, '/v1/instruments/kcor/products/')).body;
    expect(products.map((p: { id: string }) => p.id)).toEqual([
      'pb',
      'nrgf',
      'nrgfavg',
      'pbavg',
      'pbextavg',
      'nrgfextavg',
      'pbavgenh',
      'pbextavgenh',
      'nrgfavgenh',
      'nrgfextavgenh',
      'pbdiff',
      'nrgf+diff',
      'all',
    ]);
    expect(products[0]).toEqual({ description: 'polarized brightness image', id: 'pb', title: 'pB' });
    expect(products[11]).toEqual({ description: 'NRGF and difference image', id: 'nrgf+diff', title: 'NRGF + pB diff' });
    expect(products[12]).toEqual({ description: 'all products', id: 'all', title: 'All' });
  });

  it('lists the UCoMP products', async () => {
    const { products } = (await json(emulator, '/v1/instruments/ucomp/products/')).body;
    expect(products.map((p: { id: string }) => p.id)).toEqual([
      'l1',
      'intensity',
      'mean',
      'median',
      'sigma',
      'l2',
      'l2average',
      'density',
      'dynamics',
      'polarization',
      'all',
    ]);
    expect(products[0]).toEqual({ description: 'IQUV and backgrounds for various wavelengths', id: 'l1', title: 'Level 1' });
  });

  it('gives product metadata with the filters each product accepts', async () => {
    expect((await json(emulator, '/v1/instruments/kcor/products/pb/')).body).toEqual({
      description: 'polarized brightness image',
      filters: ['start-date', 'end-date', 'cr', 'every'],
      formats: ['fits'],
      id: 'pb',
      title: 'pB',
    });
    expect((await json(emulator, '/v1/instruments/kcor/products/nrgf%2Bdiff/')).body.id).toBe('nrgf+diff');
    expect((await json(emulator, '/v1/instruments/kcor/products/nrgf+diff/')).body.id).toBe('nrgf+diff');
    expect((await json(emulator, '/v1/instruments/ucomp/products/l2/')).body.filters).toEqual([
      'start-date',
      'end-date',
      'cr',
      'every',
      'wave-region',
      'obs-plan',
    ]);
    expect((await json(emulator, '/v1/instruments/ucomp/products/density/')).body.filters).toEqual(['start-date', 'end-date', 'cr', 'every']);
  });

  it('answers unknown instruments, products, versions and paths with 404 JSON naming them', async () => {
    for (const [path, named] of [
      ['/v1/instruments/comp/', 'comp'],
      ['/v1/instruments/comp/products/', 'comp'],
      ['/v1/instruments/kcor/products/xyz/', 'xyz'],
      ['/v1/instruments/kcor/products/xyz/files/', 'xyz'],
      ['/v2/about', 'v2'],
      ['/v1/nothing', 'nothing'],
      ['/', '/'],
    ] as const) {
      const { status, body, headers } = await json(emulator, path);
      expect(status, path).toBe(404);
      expect(headers.get('content-type')).toBe('application/json');
      expect(body.message).toContain(named);
    }
  });

  it('has no trailing slash on about, instruments, authenticate and download', async () => {
    for (const path of ['/v1/about/', '/v1/instruments/', '/v1/authenticate/', '/v1/download/']) {
      expect((await json(emulator, path)).status, path).toBe(404);
    }
  });

  it('answers other methods than GET with 405 JSON', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD']) {
      const response = await rawGet(`${emulator.url}/v1/about`, {}, method);
      expect(response.status, method).toBe(405);
      if (method !== 'HEAD') expect(JSON.parse(response.body.toString()).message).toContain(method);
    }
  });
});

describe('trailing-slash redirects', () => {
  const paths = ['/v1/instruments/kcor', '/v1/instruments/kcor/products', '/v1/instruments/kcor/products/pb', '/v1/instruments/kcor/products/pb/files'];

  it('redirects endpoints 3-6 to their slashed form with an absolute Location', async () => {
    for (const path of paths) {
      const response = await rawGet(`${emulator.url}${path}`);
      expect(response.status, path).toBe(308);
      expect(response.headers.location).toBe(`${emulator.url}${path}/`);
    }
  });

  it('keeps the query string and takes the host from the Host header', async () => {
    const response = await rawGet(`${emulator.url}/v1/instruments/kcor/products/pb/files?start-date=2025-03-24&client=idl`, {
      Host: 'api.example.test:8080',
    });
    expect(response.headers.location).toBe('http://api.example.test:8080/v1/instruments/kcor/products/pb/files/?start-date=2025-03-24&client=idl');
  });

  it('redirects before looking the instrument up, and uses the configured status', async () => {
    for (const status of [301, 302, 307, 308] as const) {
      emulator.setOptions({ redirectStatus: status });
      expect((await rawGet(`${emulator.url}/v1/instruments/nosuch`)).status).toBe(status);
    }
    emulator.setOptions({ redirectStatus: 308 });
  });

  it('is followed by fetch to the right answer', async () => {
    const response = await fetch(`${emulator.url}/v1/instruments/kcor/products/pb?x=1`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe('pb');
  });
});
