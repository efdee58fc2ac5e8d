// mlso-dl files --download --limit-rate, as users run it: the built command line against the emulator, 50 MB over
// four connections. The whole run's rate (its --json stats: bytes over the batch's seconds) is within 10 % of the
// cap; the same run without a cap is well above it, so the cap is what held it. Needs the built command line.
import { afterEach, describe, expect, it } from 'vitest';
import { downloadArgs } from '../core/downloads/cli-process';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

// 19 KCor images of 1024 x 1024, some 54 MB as sent.
const emulator = useEmulator({ imageSize: 1024, zeroFilesizeRate: 0, bodyForm: 'gzip-body' });
const window = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:05:00' };
const CAP = 5 * 1024 * 1024;

afterEach(async () => {
  await stopBuiltCli();
});

interface RunStats {
  batchSeconds: number;
  bytesReceived: number;
}

async function timedRun(...extra: string[]): Promise<{ rate: number; stats: RunStats; folder: string }> {
  const folder = await temporaryFolder();
  const stateFolder = await temporaryFolder();
  const run = await runBuiltCli(downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder }, '--json', '--concurrency', '4', ...extra));
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const stats = (JSON.parse(run.stdout) as { stats: RunStats }).stats;
  return { rate: stats.bytesReceived / stats.batchSeconds, stats, folder };
}

describe('mlso-dl files --download --limit-rate', () => {
  it('holds the whole run within 10 % of the cap over 50 MB, across its connections', async () => {
    const files = await listing(emulator(), window);
    // The emulator makes each body once: a first run pays for that, so the uncapped run measured is the second.
    await timedRun();
    const free = await timedRun();
    expect(free.stats.bytesReceived).toBeGreaterThan(50 * 1024 * 1024);
    expect(free.rate).toBeGreaterThan(CAP * 1.5);

    const capped = await timedRun('--limit-rate', '5MB/s');
    expect(capped.stats.bytesReceived).toBe(free.stats.bytesReceived);
    expect(emulator().stats().peakActiveDownloads).toBeGreaterThan(1);
    console.log(
      `uncapped ${(free.rate / 1024 ** 2).toFixed(1)} MiB/s; capped at 5 MiB/s: ${(capped.rate / 1024 ** 2).toFixed(2)} MiB/s over ${capped.stats.batchSeconds.toFixed(2)} s`,
    );
    expect(Math.abs(capped.rate - CAP) / CAP).toBeLessThan(0.1);
    await expectExactFolder(emulator(), capped.folder, files);
  }, 90_000);

  it('refuses a speed it cannot read, saying what to type', async () => {
    const run = await runBuiltCli(['files', '-i', 'kcor', '-p', 'pb', '-d', '-u', 'someone@example.com', '--limit-rate', '5 parsecs']);
    expect(run.status).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      `error: option '--limit-rate <speed>' argument '5 parsecs' is invalid. "5 parsecs" is not a speed. Use a speed such as 5M, 5MB/s or 500K (bytes per second), or leave it empty for no cap.`,
    );
  });
});
