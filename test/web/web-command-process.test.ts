// The real `mlso-dl web` process, as a user runs it: hostile connections must leave it running and serving.
// Needs the built command line (node scripts/build-main.mjs) and renderer (npx vite build).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import {
  addressOf,
  exchange,
  expectStillServing,
  firstData,
  frame,
  openRawSocket,
  rawWebSocket,
  readUntilClosed,
  upgradeRequest,
  type WebModeAddress,
} from './hostile-client';

const emulator = useEmulator({ imageSize: 32 });
let child: ChildProcessWithoutNullStreams;
let address: WebModeAddress;
let stderr = '';

// A fresh process per test, so each hostile connection shows its own effect.
beforeEach(async () => {
  stderr = '';
  const stateDir = await temporaryFolder();
  child = spawn(process.execPath, [bin, '--base-url', emulator().url, 'web', '--port', '0', '--state-dir', stateDir, '--output-dir', await temporaryFolder()]);
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const openUrl = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^Open (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`mlso-dl web exited with ${code}: ${stderr}`)));
  });
  address = addressOf(openUrl);
}, 30_000);

afterEach(async () => {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
});

function expectAlive(): void {
  expect({ exitCode: child.exitCode, signal: child.signalCode }, `mlso-dl web stopped; it printed: ${stderr}`).toEqual({ exitCode: null, signal: null });
}

describe('mlso-dl web, the real process', () => {
  it('keeps running and serving after refused upgrades reset by the client', async () => {
    for (let round = 0; round < 3; round += 1) {
      const socket = await openRawSocket(address.port);
      const answered = firstData(socket);
      socket.write(upgradeRequest(address.port, '/ws'));
      expect((await answered).toString('latin1')).toMatch(/^HTTP\/1\.1 403 /);
      socket.resetAndDestroy();
    }
    await expectStillServing(address);
    expectAlive();
  });

  it('keeps running and serving after a malformed WebSocket frame', async () => {
    const socket = await rawWebSocket(address);
    const closed = readUntilClosed(socket);
    socket.write(frame(Buffer.from([0xff, 0xfe])));
    await closed;
    await expectStillServing(address);
    expectAlive();
  });

  it('keeps running and serving after a request target that is not a URL', async () => {
    expect(await exchange(address.port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${address.port}\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await exchange(address.port, upgradeRequest(address.port, 'http://['))).toMatch(/^HTTP\/1\.1 400 /);
    await expectStillServing(address);
    expectAlive();
  });
});
