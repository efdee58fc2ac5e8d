// The global --listing-timeout and --max-listing-size options reach the client, and their messages name them.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { Capture, cliAgainst, oddServer, useEmulator } from '../helpers/fixtures';

const emulator = useEmulator();
const cli = cliAgainst(emulator);

const servers: Awaited<ReturnType<typeof oddServer>>[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function run(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout = new Capture();
  const stderr = new Capture();
  const status = await runCli(args, { stdout, stderr });
  return { status, stdout: stdout.text, stderr: stderr.text };
}

describe('the listing limit options', () => {
  it('are listed in the help with their defaults', async () => {
    const { stdout } = await cli('--help');
    expect(stdout).toMatch(/--listing-timeout <duration>[\s\S]*?\(default: 10m\)/);
    expect(stdout).toMatch(/--max-listing-size <size>[\s\S]*?\(default: 256MB\)/);
  });

  it('--max-listing-size stops a larger listing and says which option raises it', async () => {
    const { status, stderr } = await cli('--max-listing-size', '2KB', 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24');
    expect(status).toBe(1);
    expect(stderr).toBe(
      `mlso-dl: The file listing from ${emulator().url} is larger than the 2 KB limit; narrow the search (dates, --every) or raise the limit with --max-listing-size.\n`,
    );
    const roomy = await cli('--max-listing-size', '64MB', 'files', '-i', 'kcor', '-p', 'pb', '-s', '2025-03-24', '--every', '1hour', '--json');
    expect(roomy.status).toBe(0);
  });

  it('--listing-timeout stops a listing that trickles in', async () => {
    const server = await oddServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"files":[');
      const timer = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(timer));
    });
    servers.push(server);
    const { status, stderr } = await run('--base-url', server.url, '--listing-timeout', '1s', 'files', '-i', 'kcor', '-p', 'pb');
    expect(status).toBe(1);
    expect(stderr).toBe(
      `mlso-dl: The server at ${server.url} did not finish sending the file listing within 1 second; ` +
        'try again later, narrow the search (dates, --every) or raise the limit with --listing-timeout.\n',
    );
  });

  it('refuses limits that are not positive, as a usage error', async () => {
    for (const args of [
      ['--listing-timeout', '0s'],
      ['--listing-timeout', 'soon'],
      ['--max-listing-size', '0'],
      ['--max-listing-size', 'big'],
    ]) {
      const { status, stderr } = await cli(...args, 'about');
      expect(status, args.join(' ')).toBe(2);
      expect(stderr, args.join(' ')).toMatch(new RegExp(`option '${args[0]} <(duration|size)>' argument '${args[1]}' is invalid`));
    }
  });
});
