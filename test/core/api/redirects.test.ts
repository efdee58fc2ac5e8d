// Redirects the client will not follow get messages of their own, and are not retried as if the network
// had failed: a loop is the client's own limit, not a server status, and a Location that is not a web
// address is refused before anything tries it.
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { handlingFor } from '../../../src-main/core/downloads/retry-policy';
import { oddServer } from '../../helpers/fixtures';

const servers: Awaited<ReturnType<typeof oddServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server whose every answer is a redirect to `location(path)`. */
async function redirecting(location: (path: string) => string): Promise<string> {
  const server = await oddServer((req, res) => {
    res.writeHead(302, { location: location(req.url ?? '/') }).end();
  });
  servers.push(server);
  return server.url;
}

async function failure(attempt: Promise<unknown>): Promise<{ kind: string; message: string }> {
  const error = await attempt.then(
    () => {
      throw new Error('the request succeeded');
    },
    (error: unknown) => error,
  );
  return error as { kind: string; message: string };
}

describe('a redirect loop', () => {
  const loop = (path: string): string => `${path.split('?')[0]}?hop=${Number(new URL(path, 'http://x').searchParams.get('hop') ?? 0) + 1}`;

  it('is reported as a redirect problem for a catalogue request, after at most 10 hops', async () => {
    const url = await redirecting(loop);
    const requested: string[] = [];
    const client = new MlsoClient({ baseUrl: url }, { log: (address) => requested.push(address) });
    const error = await failure(client.about());
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(`The server at ${url} kept redirecting (more than 10 times); check the server address.`);
    expect(requested).toHaveLength(11);
    expect(handlingFor(error).action).toBe('fail');
  });

  it('is reported the same way, and not retried, when opening a download', async () => {
    const url = await redirecting(loop);
    const client = new MlsoClient({ baseUrl: url });
    const error = await failure(client.openDownload(`${url}/v1/download?filename=a.fts.gz`));
    expect(error).toMatchObject({ kind: 'invalid-response', message: `The server at ${url} kept redirecting (more than 10 times); check the server address.` });
    expect(handlingFor(error).action).toBe('fail');
  });
});

describe('a redirect to something that is not a web address', () => {
  it('is refused before it is followed, for a catalogue request', async () => {
    const url = await redirecting(() => 'file:///etc/passwd');
    const requested: string[] = [];
    const client = new MlsoClient({ baseUrl: url }, { log: (address) => requested.push(address) });
    const error = await failure(client.instrumentIds());
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toBe(`The server at ${url} redirected to file:///etc/passwd, which is not a web address; it was not followed.`);
    expect(requested).toEqual([`${url}/v1/instruments`]);
    expect(handlingFor(error).action).toBe('fail');
  });

  it('is refused, and not retried, when opening a download', async () => {
    const url = await redirecting(() => 'file:///etc/passwd');
    const client = new MlsoClient({ baseUrl: url });
    const error = await failure(client.openDownload(`${url}/v1/download?filename=a.fts.gz`));
    expect(error).toMatchObject({
      kind: 'invalid-response',
      message: `The server at ${url} redirected to file:///etc/passwd, which is not a web address; it was not followed.`,
    });
    expect(handlingFor(error).action).toBe('fail');
  });

  it('is refused when the Location cannot be read as an address at all', async () => {
    const url = await redirecting(() => 'http://[not-an-address');
    const error = await failure(new MlsoClient({ baseUrl: url }).about());
    expect(error).toMatchObject({
      kind: 'invalid-response',
      message: `The server at ${url} redirected to http://[not-an-address, which is not a web address; it was not followed.`,
    });
  });

  it('still follows a relative redirect to another web address', async () => {
    const server = await oddServer((req, res) => {
      if (req.url === '/v1/about') res.writeHead(301, { location: 'about/' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"documentation":"d","homepage":"h","support":"s","version":"1.0.0"}');
    });
    servers.push(server);
    expect((await new MlsoClient({ baseUrl: server.url }).about()).version).toBe('1.0.0');
  });
});
