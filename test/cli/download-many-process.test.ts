// `files --download` of some 800 files through the built mlso-dl, its output a pipe: every file is reported once
// as it finishes, counted 1 to N, and the summary counts them; run again, all of them are skipped as already there,
// in the text summary and in --json. The end of a run reads the ledger row by row and draws only what changed
// since the last progress update (a million-file run would otherwise hold every job at once: issue 22 item 3).
// Needs the built command line (node scripts/build-main.mjs).
import { afterEach, describe, expect, it } from 'vitest';
import { downloadArgs } from '../core/downloads/cli-process';
import { listing } from '../core/downloads/engine-harness';
import { listFolder, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';

const emulator = useEmulator({ imageSize: 8 });
// A whole observing day of KCor pB every 15 s: some 800 files.
const window = { 'start-date': '2025-03-24T00:00:00', 'end-date': '2025-03-24T23:59:59' };

afterEach(async () => {
  await stopBuiltCli();
});

describe('files --download of a day of files, its output a pipe', () => {
  it('reports each file once, counted 1 to N, and on a second run skips them all', async () => {
    const n = (await listing(emulator(), window)).length;
    expect(n).toBeGreaterThan(500);
    const run = { baseUrl: emulator().url, window, folder: await temporaryFolder(), stateFolder: await temporaryFolder() };
    const first = await runBuiltCli(downloadArgs(run, '--concurrency', '8'));
    expect(first.status).toBe(0);
    const lines = first.stderr.trimEnd().split('\n');
    const counters = lines.filter((line) => line.startsWith('[')).map((line) => new RegExp(`^\\[(\\d+)/${n}\\] `).exec(line)?.[1]);
    expect(counters).toEqual(Array.from({ length: n }, (_, i) => String(i + 1)));
    expect(lines.at(-1)).toMatch(new RegExp(`^Downloaded ${n} files \\(.+\\) into .+; skipped 0 already complete; 0 failed\\.$`));
    expect(await listFolder(run.folder)).toHaveLength(n);

    const again = await runBuiltCli(downloadArgs(run));
    expect(again.status).toBe(0);
    expect(again.stderr.trimEnd()).toMatch(new RegExp(`^Downloaded 0 files \\(0 B\\) into .+; skipped ${n} already complete; 0 failed\\.$`));
    const json = await runBuiltCli(downloadArgs(run, '--json'));
    const summary = JSON.parse(json.stdout) as { downloaded: unknown[]; skipped: string[]; failed: unknown[] };
    expect(summary.downloaded).toEqual([]);
    expect(summary.skipped).toHaveLength(n);
    expect(summary.failed).toEqual([]);
  }, 180_000);
});
