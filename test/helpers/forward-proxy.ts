// A real forward proxy in front of the emulator: Debian's tinyproxy, started on a free port with its own config and
// log, so tests can count what went through it (its log names every request and every CONNECT tunnel).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { connect, createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { temporaryFolder } from './fixtures';
import { waitFor } from './wait-for';

export interface ForwardProxy {
  /** http://127.0.0.1:PORT (no credentials). */
  url: string;
  port: number;
  /** The request lines the proxy logged ("GET http://... HTTP/1.1", "CONNECT 127.0.0.1:PORT HTTP/1.1"), in order. */
  requests(): Promise<string[]>;
  /** Ends the proxy at once, dropping every connection through it. */
  kill(): Promise<void>;
}

export interface ProxyOptions {
  /** Makes the proxy ask for this user name and password (407 without them). */
  basicAuth?: { user: string; password: string };
  /** The port to listen on (a proxy started again where a killed one was); a free one by default. */
  port?: number;
  /** Tunnels (CONNECT) only to these ports, as proxies that allow https on 443 alone do; any port by default. */
  connectPorts?: number[];
}

const started = new Set<ChildProcess>();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startForwardProxy(options: ProxyOptions = {}): Promise<ForwardProxy> {
  const folder = await temporaryFolder();
  const port = options.port ?? (await freePort());
  const log = path.join(folder, 'tinyproxy.log');
  const config = [
    `Port ${port}`,
    'Listen 127.0.0.1',
    'Timeout 60',
    `LogFile "${log}"`,
    'LogLevel Connect',
    'MaxClients 200',
    'Allow 127.0.0.1',
    ...(options.basicAuth ? [`BasicAuth ${options.basicAuth.user} ${options.basicAuth.password}`] : []),
    ...(options.connectPorts ?? []).map((port) => `ConnectPort ${port}`),
  ];
  await writeFile(path.join(folder, 'tinyproxy.conf'), `${config.join('\n')}\n`);
  const child = spawn('tinyproxy', ['-d', '-c', path.join(folder, 'tinyproxy.conf')], { stdio: 'ignore' });
  started.add(child);
  let ended = false;
  child.on('error', () => (ended = true));
  child.on('exit', () => {
    ended = true;
    started.delete(child);
  });
  await waitFor(async () => ended || (await accepts(port)), 'tinyproxy to listen');
  if (ended) throw new Error("tinyproxy did not start (is Debian's tinyproxy installed?)");
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async requests() {
      const text = await readFile(log, 'utf8').catch(() => '');
      return [...text.matchAll(/Request \(file descriptor \d+\): (.*)$/gm)].map((match) => match[1]!);
    },
    async kill() {
      if (ended) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Ends every proxy still running (afterEach). */
export function stopForwardProxies(): void {
  for (const child of started) child.kill('SIGKILL');
}
