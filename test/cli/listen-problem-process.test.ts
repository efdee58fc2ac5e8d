// `mlso-dl mock-server` and `mlso-dl web` where they cannot listen, as users start them: one plain line naming the
// port (or the address) and the option to change, status 2; never "unexpected problem". Needs the built command line
// (node scripts/build-main.mjs) and, for web, the renderer (npx vite build).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, runBuiltCli, stopBuiltCli, type FinishedRun } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';

const servers: Server[] = [];
afterEach(async () => {
  await stopBuiltCli();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A port on 127.0.0.1 that another program (a plain server of this test) is listening on. */
async function busyPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** The lowest port an ordinary user may listen on (1024 unless the system says otherwise). */
function firstUnprivilegedPort(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', 'utf8'));
  } catch {
    return 1024;
  }
}

/** Runs mlso-dl as an ordinary user: as `nobody` when the tests run as root. */
function runAsOrdinaryUser(args: readonly string[]): Promise<FinishedRun> {
  const asRoot = process.getuid?.() === 0;
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
  child.on('error', () => undefined); // the exit status tells the test what went wrong
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

describe('a server command that cannot listen', () => {
  it('mock-server on a busy port: one line naming the port and --port, status 2', async () => {
    const port = await busyPort();
    const run = await runBuiltCli(['mock-server', '--port', String(port)]);
    expect(run.stderr).toBe(
      `mlso-dl: Port ${port} on 127.0.0.1 is already in use by another program: choose another with --port, or --port 0 for a free one.\n`,
    );
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('web on a busy port: the same line', async () => {
    const port = await busyPort();
    const run = await runBuiltCli(['web', '--port', String(port), '--state-dir', await temporaryFolder()]);
    expect(run.stderr).toBe(
      `mlso-dl: Port ${port} on 127.0.0.1 is already in use by another program: choose another with --port, or --port 0 for a free one.\n`,
    );
    expect(run.status).toBe(2);
  });

  it('mock-server --host with an address that is not this computer: one line naming it and --host', async () => {
    // 192.0.2.1 is kept for documentation (TEST-NET-1): no computer has it.
    const run = await runBuiltCli(['mock-server', '--host', '192.0.2.1', '--port', '0']);
    expect(run.stderr).toBe('mlso-dl: 192.0.2.1 is not an address of this computer: give one of its own with --host, such as 127.0.0.1.\n');
    expect(run.status).toBe(2);
  });

  it.runIf(firstUnprivilegedPort() > 1)('mock-server on a port kept for administrators, as an ordinary user: one line saying so', async () => {
    const run = await runAsOrdinaryUser(['mock-server', '--port', '1']);
    expect(run.stderr).toBe('mlso-dl: Port 1 is kept for administrators on this system: choose one from 1024 up with --port, or --port 0 for a free one.\n');
    expect(run.status).toBe(2);
  });
});
