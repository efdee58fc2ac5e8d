// `mlso-dl mock-server --tls`: the emulator over https with a throwaway certificate, whose authority's file it
// names; a client told to trust that file (NODE_EXTRA_CA_CERTS) talks to it, one not told is refused, and the
// authority's folder goes when the server stops. Needs the built command line and openssl.
import { access } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltCli, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { waitFor } from '../helpers/wait-for';

afterEach(async () => {
  await stopBuiltCli();
});

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

describe('mlso-dl mock-server --tls', () => {
  it('serves https that a client trusting its throwaway authority reaches', async () => {
    const server = startBuiltCli(['mock-server', '--port', '0', '--image-size', '16', '--tls']);
    await waitFor(() => server.stderr().includes('NODE_EXTRA_CA_CERTS=') || server.child.exitCode !== null, 'the authority to be named');
    const url = /^MLSO API emulator listening on (https:\/\/127\.0\.0\.1:\d+)$/m.exec(server.stdout())?.[1];
    expect(url, server.stdout() + server.stderr()).toBeDefined();
    const caFile = /NODE_EXTRA_CA_CERTS=(\S+?)\)/.exec(server.stderr())?.[1];
    expect(caFile).toBeDefined();
    expect(await exists(caFile!)).toBe(true);

    const trusting = await runBuiltCli(['--base-url', url!, 'instruments', '--json'], { ...process.env, NODE_EXTRA_CA_CERTS: caFile! });
    expect(trusting.stderr).toBe('');
    expect(trusting.status).toBe(0);
    expect(JSON.parse(trusting.stdout)).toContainEqual(expect.objectContaining({ id: 'kcor' }));

    const untrusting = await runBuiltCli(['--base-url', url!, 'instruments']);
    expect(untrusting.status).not.toBe(0);
    expect(untrusting.stderr).toMatch(/^mlso-dl: Cannot reach https:\/\/127\.0\.0\.1:\d+ \(/);

    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(await exists(caFile!)).toBe(false);
  });
});
