// The real executable against a hostile server: a listing whose files are on another server is refused file by
// file, saying how to allow it, and with --allow-other-hosts is downloaded from there without the session cookie;
// a listing answered with a web page, or with an entry nested too deep to write out, ends the run with one plain line
// and status 1. `campaign sync` takes the same
// flag (run in-process: the flag's path through the command line is the same).
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { runBuiltCli } from '../helpers/built-cli';
import { cliAgainst, listFolder, oddServer, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { otherServer, type OtherServer } from '../helpers/other-server';

const emulator = useEmulator({ imageSize: 8 });
const window = ['-s', '2025-03-24T21:00:00', '-e', '2025-03-24T21:01:00']; // 4 files

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

async function listedElsewhere(): Promise<OtherServer> {
  const other = await otherServer(emulator);
  started.push(other);
  emulator().setOptions({ publicBaseUrl: other.url });
  return other;
}

async function download(...extra: string[]): Promise<{ status: number | null; stderr: string; folder: string }> {
  const folder = await temporaryFolder();
  const args = ['--base-url', emulator().url, 'files', '-i', 'kcor', '-p', 'pb', ...window, '--download', '-u', DEMO_EMAIL, '-o', folder];
  const run = await runBuiltCli([...args, '--state-dir', await temporaryFolder(), ...extra]);
  return { status: run.status, stderr: run.stderr, folder };
}

describe('mlso-dl files --download, with the files listed on another server', () => {
  it('refuses each file, saying why and how to allow it, exits 1 and asks the other server nothing', async () => {
    const other = await listedElsewhere();
    const { status, stderr, folder } = await download();
    expect(status).toBe(1);
    const failed = stderr.split('\n').filter((line) => line.startsWith('failed: '));
    expect(failed).toHaveLength(4);
    const apiHost = new URL(emulator().url).host;
    for (const line of failed) {
      expect(line).toMatch(
        new RegExp(
          `^failed: \\S+\\.fts: The file's address is on another server \\(${new URL(other.url).host}\\); MLSO Downloader only downloads from ${apiHost}\\. To allow it, add --allow-other-hosts\\.$`,
        ),
      );
    }
    expect(await listFolder(folder)).toEqual([]);
    expect(other.requests).toEqual([]);
  });

  it('downloads them from there with --allow-other-hosts, never sending the session cookie', async () => {
    const other = await listedElsewhere();
    const { status, stderr, folder } = await download('--allow-other-hosts');
    expect(stderr).toMatch(/Downloaded 4 files/);
    expect(status).toBe(0);
    expect(await listFolder(folder)).toHaveLength(4);
    expect(other.requests).toHaveLength(4);
    expect(other.requests.every((request) => request.cookie === undefined)).toBe(true);
  });
});

describe('mlso-dl files against a server that answers with a web page', () => {
  it('says so in one plain line and exits 1', async () => {
    const page = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><h1>Down for maintenance</h1></body></html>');
    });
    started.push(page);
    const run = await runBuiltCli(['--base-url', page.url, 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `mlso-dl: The server at ${page.url} sent an answer this client does not understand (expected JSON, got an HTML page). Check the server address and API version.`,
    ]);
  });
});

describe('mlso-dl files --json against a server whose entry nests thousands of levels deep', () => {
  it('says so in one plain line and exits 1, rather than overflowing the stack writing it out', async () => {
    const depth = 5_000;
    const entry = `{"date-obs":"2025-03-24T21:03:15","filename":"a.fts","filesize":1,"instrument":"kcor","product":"pb","url":"http://127.0.0.1/a.fts","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const deep = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"instrument":"kcor","product":"pb","files":[${entry}]}`);
    });
    started.push(deep);
    const run = await runBuiltCli(['--base-url', deep.url, 'files', '-i', 'kcor', '-p', 'pb', '--json']);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      `mlso-dl: The server at ${deep.url} sent an answer this client does not understand (files[0] nests more than 64 levels deep, far beyond any file entry). Check the server address and API version.`,
    ]);
    expect(run.status).toBe(1);
  });
});

describe('mlso-dl campaign sync, with the files listed on another server', () => {
  const cli = cliAgainst(emulator);

  it('reports each file as refused, and fetches them with --allow-other-hosts', async () => {
    const other = await listedElsewhere();
    const folder = await temporaryFolder();
    expect((await cli('campaign', 'create', 'elsewhere', '-i', 'kcor', '-p', 'pb', ...window, '-o', folder)).status).toBe(0);

    const refused = await cli('campaign', 'sync', 'elsewhere', '-u', DEMO_EMAIL);
    expect(refused.status).toBe(1);
    expect(refused.stderr.split('\n').filter((line) => line.startsWith('refused: '))).toHaveLength(4);
    expect(refused.stderr).toContain(
      `is on another server (${new URL(other.url).host}); MLSO Downloader only downloads from ${new URL(emulator().url).host}. To allow it, add --allow-other-hosts.`,
    );
    expect(other.requests).toEqual([]);

    const allowed = await cli('campaign', 'sync', 'elsewhere', '-u', DEMO_EMAIL, '--allow-other-hosts', '--json');
    expect(allowed.status).toBe(0);
    expect(JSON.parse(allowed.stdout).total).toMatchObject({ listed: 4, onDisk: 4, failed: 0, missing: 0 });
    expect(await listFolder(folder)).toHaveLength(4);
    expect(other.requests.every((request) => request.cookie === undefined)).toBe(true);
  });
});
