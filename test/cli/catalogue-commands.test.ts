import { describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { CLIENT_VERSION } from '../../src-main/cli/version';
import { Capture, cliAgainst, oddServer, useEmulator } from '../helpers/fixtures';
import packageJson from '../../package.json' with { type: 'json' };

const emulator = useEmulator();

const cli = cliAgainst(emulator);

describe('mlso-dl catalogue commands', () => {
  it('prints its version, in step with package.json', async () => {
    expect(CLIENT_VERSION).toBe(packageJson.version);
    const { status, stdout } = await cli('--version');
    expect(status).toBe(0);
    expect(stdout.trim()).toBe(`mlso-dl ${CLIENT_VERSION}`);
  });

  it('prints help with every command and exits 0', async () => {
    const { status, stdout } = await cli('--help');
    expect(status).toBe(0);
    for (const command of ['about', 'instruments', 'products', 'files', 'mock-server']) expect(stdout).toContain(command);
    for (const option of ['--base-url', '--api-version', '--verbose', '--quiet']) expect(stdout).toContain(option);
  });

  it('about', async () => {
    const { status, stdout } = await cli('about');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^server version: 1\.0\.0, client version: /);
    expect(stdout).toContain('documentation: https://mlso-api-client.readthedocs.io/en/latest/');
    const json = JSON.parse((await cli('about', '--json')).stdout);
    expect(json.support).toBe('mlso_data_requests@ucar.edu');
  });

  it('instruments as a table like mlsoapi and as JSON', async () => {
    const { status, stdout } = await cli('instruments');
    expect(status).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+Instrument name\s+Dates available$/);
    expect(lines[2]).toMatch(/^kcor\s+COSMO K-Coronagraph \(KCor\)\s+2013-09-30\.\.\.2025-03-24$/);
    expect(lines[3]).toMatch(/^ucomp\s+Upgraded Coronal Multi-Polarimeter \(UCoMP\)\s+2021-07-15\.\.\.2025-03-24$/);
    const json = JSON.parse((await cli('instruments', '--json')).stdout);
    expect(json).toHaveLength(2);
    expect(Object.keys(json[0]).sort()).toEqual(['end-date', 'id', 'name', 'start-date']);
    expect(json[0]).toMatchObject({ id: 'kcor', 'start-date': '2013-09-30T18:57:54' });
  });

  it('products as a wrapped table and as the server object', async () => {
    const { status, stdout } = await cli('products', '-i', 'ucomp');
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ID\s+Title\s+Description/);
    expect(stdout).toMatch(/\nl2\s+Level 2\s+/);
    const json = JSON.parse((await cli('products', '--instrument', 'kcor', '--json')).stdout);
    expect(json.products.map((p: { id: string }) => p.id)).toContain('pb');
  });

  it('a missing required option is a usage error (exit 2)', async () => {
    const { status, stderr } = await cli('products');
    expect(status).toBe(2);
    expect(stderr).toMatch(/required option '-i, --instrument <id>' not specified/);
  });

  it("an unknown instrument is a server failure (exit 1) with the server's words", async () => {
    const { status, stderr } = await cli('products', '-i', 'nosuch');
    expect(status).toBe(1);
    expect(stderr).toMatch(/^mlso-dl: The server answered 404: .*nosuch/);
    expect(stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
  });

  it('says it cannot reach a server that is down, without a stack trace', async () => {
    const down = await oddServer(() => undefined);
    await down.close();
    const stdout = new Capture();
    const stderr = new Capture();
    const status = await runCli(['-u', down.url, 'instruments'], { stdout, stderr });
    expect(status).toBe(1);
    expect(stderr.text).toContain(`Cannot reach ${down.url}`);
    expect(stderr.text).not.toMatch(/\n\s+at /);
  });

  it('--verbose shows the requests', async () => {
    const { stderr } = await cli('--verbose', 'instruments');
    expect(stderr).toContain(`GET ${emulator().url}/v1/instruments`);
  });
});
