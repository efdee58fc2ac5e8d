// A listing whose download addresses point at another server (the emulator's publicBaseUrl set to a recording
// server reached as "localhost", while the API is "127.0.0.1"): by default every entry is refused and reported and
// the other server never hears from the downloader; with other servers allowed the files come from there, and
// not one request carries the session cookie.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { openDownloadEngine, type OpenedEngine } from '../../../src-main/core/app/open-engine';
import { DEMO_EMAIL } from '../../../src-main/emulator';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { otherServer, type OtherServer } from '../../helpers/other-server';

const emulator = useEmulator({ imageSize: 8 });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' }; // 4 files

const open: { engine: OpenedEngine; other: OtherServer }[] = [];
afterEach(async () => {
  for (const { engine, other } of open.splice(0)) {
    await engine.close();
    await other.close();
  }
});

async function setUp(allowOtherHosts: boolean): Promise<{ opened: OpenedEngine; other: OtherServer; folder: string }> {
  const other = await otherServer(emulator);
  emulator().setOptions({ publicBaseUrl: other.url });
  const client = new MlsoClient({ baseUrl: emulator().url, allowOtherHosts }, { otherServersAdvice: 'add --allow-other-hosts' });
  const opened = await openDownloadEngine(await temporaryFolder(), { client, username: () => DEMO_EMAIL, backoff: { baseMs: 5, maxMs: 40 } });
  open.push({ engine: opened, other });
  return { opened, other, folder: await temporaryFolder() };
}

describe('a listing whose files are on another server', () => {
  it('is refused entry by entry, with the reason, and the other server is never asked', async () => {
    const { opened, other, folder } = await setUp(false);
    const { files } = await new MlsoClient({ baseUrl: emulator().url }).files({ instrument: 'kcor', product: 'pb', filters: window });
    expect(files.length).toBeGreaterThan(0);
    expect(new URL(files[0]!.url).host).toBe(new URL(other.url).host);

    const result = await opened.engine.enqueue(files, folder);
    expect(await opened.engine.whenSettled()).toBe('finished');
    expect(result.queued).toEqual([]);
    const otherHost = new URL(other.url).host;
    const apiHost = new URL(emulator().url).host;
    expect(result.rejected).toEqual(
      files.map((file) => ({
        filename: file.filename,
        reason: `The file's address is on another server (${otherHost}); MLSO Downloader only downloads from ${apiHost}. To allow it, add --allow-other-hosts.`,
      })),
    );
    expect(opened.ledger.list({ includeCleared: true })).toEqual([]);
    expect(other.requests).toEqual([]);
    expect(await listFolder(folder)).toEqual([]);
  });

  it('is downloaded from there when other servers are allowed, and no request carries the session cookie', async () => {
    const { opened, other, folder } = await setUp(true);
    const { files } = await new MlsoClient({ baseUrl: emulator().url }).files({ instrument: 'kcor', product: 'pb', filters: window });

    const result = await opened.engine.enqueue(files, folder);
    expect(result.rejected).toEqual([]);
    expect(await opened.engine.whenSettled()).toBe('finished');
    expect(await listFolder(folder)).toEqual(files.map((file) => file.filename).sort());
    for (const file of files) expect((await readFile(path.join(folder, file.filename))).equals(await emulator().fileBytes('kcor', file.filename))).toBe(true);
    expect(other.requests.map((request) => request.path).sort()).toEqual(files.map((file) => new URL(file.url).pathname + new URL(file.url).search).sort());
    expect(other.requests.every((request) => request.cookie === undefined)).toBe(true);
    // The engine did sign in (the API has the session): the cookie existed, and stayed home.
    expect(emulator().stats().authentications).toBeGreaterThan(0);
  });
});
