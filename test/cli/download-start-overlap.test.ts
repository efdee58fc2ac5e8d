// `files --download` does no work for no one and waits for nothing it can overlap: the sign-in goes out while the
// engine (SQLite, the ledger's migrations) is still opening, and with --json or --quiet, where no progress is drawn,
// no progress update (a view of every transfer in flight, ten times a second) is built. The engine's opening is held
// here until the proxy sees the sign-in (or a few seconds pass), so the order shows without any timing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src-main/cli/run-cli';
import { ProgressBoard } from '../../src-main/core/downloads/progress-board';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { Capture, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { heldListingProxy, type HeldListingProxy } from './held-listing-proxy';

/** Set by a test: the engine's opening waits for it (then notes that it opened). */
const engineGate = vi.hoisted(() => ({ until: undefined as (() => Promise<string>) | undefined, opened: [] as string[] }));

vi.mock('../../src-main/core/app/open-engine', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src-main/core/app/open-engine')>();
  return {
    ...real,
    openDownloadEngine: async (...args: Parameters<typeof real.openDownloadEngine>) => {
      engineGate.opened.push(`engine opened after ${(await engineGate.until?.()) ?? 'nothing'}`);
      return real.openDownloadEngine(...args);
    },
  };
});

const emulator = useEmulator({ imageSize: 8 });
const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:30:00' }; // 120 small files

let proxy: HeldListingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  engineGate.until = undefined;
  engineGate.opened = [];
  vi.restoreAllMocks();
});

async function download(baseUrl: string, global: string[], extra: string[] = []): Promise<{ status: number; stderr: string; folder: string }> {
  const folder = await temporaryFolder();
  const stateFolder = await temporaryFolder();
  const stdout = new Capture();
  const stderr = new Capture();
  const args = ['--base-url', baseUrl, ...global, 'files', '-i', 'kcor', '-p', 'pb', '-s', window['start-date'], '-e', window['end-date']];
  const status = await runCli([...args, '-d', '-u', DEMO_EMAIL, '-o', folder, '--state-dir', stateFolder, ...extra], { stdout, stderr });
  return { status, stderr: stderr.text, folder };
}

/** Resolves with `wanted` once `events` holds it, or with "timeout" after `ms`. */
async function seen(events: readonly string[], wanted: string, ms: number): Promise<string> {
  const until = Date.now() + ms;
  while (!events.includes(wanted)) {
    if (Date.now() >= until) return 'timeout';
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return wanted;
}

describe('mlso-dl files --download starts without waiting for what it can overlap', () => {
  it('signs in while the download engine is still opening', async () => {
    proxy = await heldListingProxy(emulator().url, {});
    const events = proxy.events;
    engineGate.until = () => seen(events, 'authenticate:start', 3_000);
    const run = await download(proxy.url, ['-q']);
    expect(run.status, run.stderr).toBe(0);
    // Noted when the engine was let go: the sign-in had arrived by then, rather than the wait running out.
    expect(engineGate.opened).toEqual(['engine opened after authenticate:start']);
    expect(events.filter((event) => event === 'authenticate:start')).toHaveLength(1);
    await expectExactFolder(emulator(), run.folder, await listing(emulator(), window));
  }, 30_000);

  it.each([
    ['--json', [], ['--json']],
    ['--quiet', ['-q'], []],
  ])(
    'builds no progress update when nothing draws one (%s)',
    async (_name, global, extra) => {
      // Each answer waits a little, so transfers are in flight over many of the engine's 100 ms ticks.
      emulator().setOptions({ latencyMs: 30 });
      const updates = vi.spyOn(ProgressBoard.prototype, 'update');
      const run = await download(emulator().url, global, [...extra, '--concurrency', '2']);
      expect(run.status, run.stderr).toBe(0);
      expect(updates).not.toHaveBeenCalled();
      await expectExactFolder(emulator(), run.folder, await listing(emulator(), window));
    },
    30_000,
  );
});
