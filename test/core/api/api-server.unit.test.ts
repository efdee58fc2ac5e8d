// What counts as the API's own server: the same host name, port and scheme, or an upgrade from http to https
// on the default ports; nothing else, however alike it looks.
import { describe, expect, it } from 'vitest';
import { ApiServer } from '../../../src-main/core/api/api-server';

describe("the API's server", () => {
  const http = 'http://api.mlso.ucar.edu';
  const https = 'https://api.mlso.ucar.edu';
  const local = 'http://127.0.0.1:5000';

  it.each([
    [http, 'http://api.mlso.ucar.edu/v1/download?filename=a.fts.gz'],
    [http, 'http://API.MLSO.UCAR.EDU:80/v1/download'],
    [http, 'https://api.mlso.ucar.edu/v1/download'],
    [https, 'https://api.mlso.ucar.edu:443/v1/download'],
    [local, 'http://127.0.0.1:5000/v1/download'],
    [local, 'http://2130706433:5000/v1/download'],
  ])('%s holds %s', (base, url) => {
    expect(new ApiServer(base).holds(url)).toBe(true);
  });

  it.each([
    [https, 'http://api.mlso.ucar.edu/v1/download'],
    [http, 'http://api.mlso.ucar.edu:8080/v1/download'],
    [http, 'https://api.mlso.ucar.edu:8443/v1/download'],
    [http, 'http://api.mlso.ucar.edu.evil.example/v1/download'],
    [http, 'http://api.mlso.ucar.edu@evil.example/v1/download'],
    [http, 'http://evil.example/?http://api.mlso.ucar.edu'],
    [http, 'ftp://api.mlso.ucar.edu/v1/download'],
    [http, 'not an address'],
    [local, 'http://localhost:5000/v1/download'],
    [local, 'https://127.0.0.1:5000/v1/download'],
    [local, 'http://127.0.0.1:5001/v1/download'],
  ])('%s does not hold %s', (base, url) => {
    expect(new ApiServer(base).holds(url)).toBe(false);
  });

  it('names the other server by its host, or by its origin when the host reads the same', () => {
    expect(new ApiServer(http).describe(new URL('http://evil.example:8080/x'))).toEqual({ other: 'evil.example:8080', api: 'api.mlso.ucar.edu' });
    expect(new ApiServer(https).describe(new URL('http://api.mlso.ucar.edu/x'))).toEqual({
      other: 'http://api.mlso.ucar.edu',
      api: 'https://api.mlso.ucar.edu',
    });
  });
});
