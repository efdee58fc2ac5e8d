// The session cookie stays on the API's server, and downloads stay there too unless other servers are allowed.
// Two local servers: the emulator behind a proxy on 127.0.0.1 (the API, which answers every download with a
// redirect elsewhere), and a recording server reached as "localhost" or on another port (the other server).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { handlingFor } from '../../../src-main/core/downloads/retry-policy';
import { RedirectError, RefusedAddressError } from '../../../src-main/core/errors';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { oddServer, useEmulator } from '../../helpers/fixtures';
import { otherServer } from '../../helpers/other-server';

const emulator = useEmulator();
const ADVICE = 'add --allow-other-hosts';

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The emulator behind a proxy whose downloads redirect to `location(path)`; notes the cookie of each download. */
async function redirectingApi(location: (path: string) => string): Promise<{ url: string; downloadCookies: (string | undefined)[] }> {
  const downloadCookies: (string | undefined)[] = [];
  const server = await oddServer((req, res) => {
    res.on('error', () => undefined);
    if ((req.url ?? '').startsWith('/v1/download')) {
      downloadCookies.push(req.headers.cookie);
      res.writeHead(302, { location: location(req.url ?? '/') }).end();
      return;
    }
    const upstream = httpRequest(new URL(req.url ?? '/', emulator().url), { headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    upstream.end();
  });
  servers.push(server);
  return { url: server.url, downloadCookies };
}

async function started<T extends { close(): Promise<void> }>(starting: Promise<T>): Promise<T> {
  const server = await starting;
  servers.push(server);
  return server;
}

async function failure(attempt: Promise<unknown>): Promise<unknown> {
  return attempt.then(
    () => {
      throw new Error('the request succeeded');
    },
    (error: unknown) => error,
  );
}

const signedIn = async (baseUrl: string, allowOtherHosts: boolean): Promise<MlsoClient> => {
  const client = new MlsoClient({ baseUrl, allowOtherHosts }, { otherServersAdvice: ADVICE });
  await client.authenticate(DEMO_EMAIL);
  expect(await client.sessionExpiry()).toBeDefined();
  return client;
};

describe('a download address on another server', () => {
  it('is refused before any request by default, saying how to allow it, and is not retried', async () => {
    const other = await started(otherServer(emulator));
    const client = await signedIn(emulator().url, false);
    const error = await failure(client.openDownload(`${other.url}/v1/download?filename=a.fts.gz`));
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as RefusedAddressError).message).toBe(
      `The file's address is on another server (${new URL(other.url).host}); MLSO Downloader only downloads from ${new URL(emulator().url).host}. To allow it, ${ADVICE}.`,
    );
    expect(handlingFor(error).action).toBe('fail');
    expect(other.requests).toEqual([]);
  });

  it('is fetched without the session cookie when other servers are allowed', async () => {
    const other = await started(otherServer(emulator));
    const client = await signedIn(emulator().url, true);
    (await client.openDownload(`${other.url}/v1/download?filename=a.fts.gz`)).data.destroy();
    expect(other.requests).toEqual([{ path: '/v1/download?filename=a.fts.gz', cookie: undefined }]);
  });

  it('on the same host but another port is another server: the cookie does not go there', async () => {
    const other = await started(otherServer(emulator, 'another port'));
    const client = await signedIn(emulator().url, true);
    (await client.openDownload(`${other.url}/v1/download?filename=a.fts.gz`)).data.destroy();
    expect(other.requests).toEqual([{ path: '/v1/download?filename=a.fts.gz', cookie: undefined }]);
  });

  it('that is no web address is refused even when other servers are allowed', async () => {
    const client = await signedIn(emulator().url, true);
    const error = await failure(client.openDownload('file:///etc/passwd'));
    expect(error).toBeInstanceOf(RefusedAddressError);
    expect((error as Error).message).toBe("The file's address, file:///etc/passwd, is not a web address; it was not fetched.");
  });
});

describe('a download the API redirects to another server', () => {
  it('is not followed by default: the API got the cookie, the other server got nothing, and the reason says why', async () => {
    const other = await started(otherServer(emulator));
    const api = await redirectingApi((path) => `${other.url}${path}`);
    const client = await signedIn(api.url, false);
    const error = await failure(client.openDownload(`${api.url}/v1/download?filename=a.fts.gz`));
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).message).toBe(
      `The server at ${api.url} redirected the download to another server (${new URL(other.url).host}); ` +
        `MLSO Downloader only downloads from ${new URL(api.url).host}, so it was not followed. To allow it, ${ADVICE}.`,
    );
    expect(handlingFor(error).action).toBe('fail');
    expect(api.downloadCookies).toEqual([expect.stringMatching(/^session=/)]);
    expect(other.requests).toEqual([]);
  });

  it('is followed when other servers are allowed, and the cookie stops at the API', async () => {
    const other = await started(otherServer(emulator));
    const api = await redirectingApi((path) => `${other.url}${path}`);
    const client = await signedIn(api.url, true);
    (await client.openDownload(`${api.url}/v1/download?filename=a.fts.gz`)).data.destroy();
    expect(api.downloadCookies).toEqual([expect.stringMatching(/^session=/)]);
    expect(other.requests).toEqual([{ path: '/v1/download?filename=a.fts.gz', cookie: undefined }]);
  });
});
