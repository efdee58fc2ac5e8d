// The one demo-server starter of every front end: the emulator as the demo needs it (loopback, a free port,
// the default catalogue, no faults) and nothing left listening once it is closed.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { startDemoServer } from '../../src-main/emulator/demo-server';
import { DEFAULT_EMULATOR_OPTIONS, DEMO_EMAIL, type RunningEmulator } from '../../src-main/emulator';

const started: RunningEmulator[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((demo) => demo.close()));
});

async function start(...args: Parameters<typeof startDemoServer>): Promise<RunningEmulator> {
  const demo = await startDemoServer(...args);
  started.push(demo);
  return demo;
}

/** Whether something accepts connections on that port of the loopback address. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the demo server', () => {
  it('is the emulator with its default catalogue and no faults, on a free loopback port, and the demo e-mail signs in', async () => {
    const demo = await start();
    expect(demo.url).toBe(`http://127.0.0.1:${demo.port}`);
    expect(demo.port).toBeGreaterThan(0);
    expect(demo.options).toEqual({ ...DEFAULT_EMULATOR_OPTIONS, port: demo.port });
    const client = new MlsoClient({ baseUrl: demo.url });
    await client.authenticate(DEMO_EMAIL);
    expect((await client.instruments()).length).toBeGreaterThan(0);
  });

  it('stays on loopback and on a port of its own whatever a caller passes', async () => {
    const first = await start();
    const second = await start({ imageSize: 32, host: '0.0.0.0', port: first.port } as Parameters<typeof startDemoServer>[0]);
    expect(second.options).toMatchObject({ host: '127.0.0.1', imageSize: 32 });
    expect(second.port).not.toBe(first.port);
  });

  it('stops listening when closed', async () => {
    const demo = await start();
    expect(await listening(demo.port)).toBe(true);
    await demo.close();
    expect(await listening(demo.port)).toBe(false);
  });
});
