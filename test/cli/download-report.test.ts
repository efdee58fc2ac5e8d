// What `files --download` tells the user when its output is not a terminal, as the README promises: "otherwise
// one line per finished file. A summary ends the run (downloaded, skipped, failed with reasons); --json prints it
// as JSON." The built mlso-dl runs as a child with pipes for stdout and stderr, on a known run: four files, one
// already complete in the folder, one the server refuses with a 404, two downloaded.
// Needs the built command line (node scripts/build-main.mjs).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { humanSize } from '../../src-shared/format/human-size';
import type { FileEntry } from '../../src-shared/api/schemas';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import { DEMO_EMAIL } from '../../src-main/emulator';
import { listing } from '../core/downloads/engine-harness';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { downloadArgs } from '../core/downloads/cli-process';
import { listFolder, temporaryFolder, useEmulator } from '../helpers/fixtures';
import { sha256Hex } from '../helpers/sha256';

const emulator = useEmulator({ imageSize: 64 });
const window = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:01:10' }; // four files

afterEach(async () => {
  await stopBuiltCli();
});

interface KnownRun {
  folder: string;
  args: string[];
  files: FileEntry[];
  /** Already complete in the folder before the run: skipped. */
  present: string;
  /** Refused by the server with a 404: failed at once. */
  refused: string;
  /** The two files this run downloads. */
  downloaded: string[];
}

async function knownRun(...extra: string[]): Promise<KnownRun> {
  const files = await listing(emulator(), window);
  expect(files).toHaveLength(4);
  const folder = await temporaryFolder();
  const [present, refused, ...downloaded] = files.map((file) => file.filename) as [string, string, ...string[]];
  await writeFile(path.join(folder, present), await emulator().fileBytes('kcor', present));
  emulator().injectFault(refused, 'status-404');
  const args = downloadArgs({ baseUrl: emulator().url, window, folder, stateFolder: await temporaryFolder() }, ...extra);
  return { folder, args, files, present, refused, downloaded };
}

const fitsBytes = (name: string): Promise<Buffer> => emulator().fileBytes('kcor', name);

/** The bytes of a file's body as the server sends it (gzip), which is what the run's received bytes count. */
async function bodyLength(file: FileEntry): Promise<number> {
  const client = new MlsoClient({ baseUrl: emulator().url });
  await client.authenticate(DEMO_EMAIL);
  const response = await client.openDownload(file.url);
  let length = 0;
  for await (const chunk of response.data as Readable) length += (chunk as Buffer).length;
  return length;
}

describe('files --download, its output a pipe', () => {
  it('prints one line per finished file on stderr: its counter, its name and size, or why it failed', async () => {
    const run = await knownRun();
    const { status, stdout, stderr } = await runBuiltCli(run.args);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    const perFile = lines.filter((line) => line.startsWith('['));
    expect(perFile).toHaveLength(3);
    // Each finished file once, counted 1 to 3 in the order they finished, out of the three queued.
    expect(perFile.map((line) => /^\[(\d)\/3\] /.exec(line)?.[1])).toEqual(['1', '2', '3']);
    const byName = new Map(perFile.map((line) => [line.split(' ')[1]!, line.replace(/^\[\d\/3\] /, '')]));
    for (const name of run.downloaded) expect(byName.get(name)).toBe(`${name} ${humanSize((await fitsBytes(name)).length)}`);
    expect(byName.get(run.refused)).toMatch(new RegExp(`^${run.refused} failed: .*404`));
    expect(byName.has(run.present)).toBe(false);
    // The summary follows them, and names the failure again.
    expect(lines.at(-2)).toMatch(/^Downloaded 2 files \(.+\) into .+ in [\d.]+ s; skipped 1 already complete; 1 failed\.$/);
    expect(lines.at(-1)).toMatch(new RegExp(`^failed: ${run.refused}: .*404`));
    expect(await listFolder(run.folder)).toEqual([run.present, ...run.downloaded].sort());
  });

  it('--json prints the summary on stdout, through a real pipe: the folder, each file downloaded with its size and SHA-256, the skipped, the failed with the reason, and the byte counts', async () => {
    const run = await knownRun('--json');
    const piped = await runPiped(run.args, 'cat');
    expect(piped.statuses).toEqual([1, 0]);
    // Nothing but the failure report on stderr: no per-file lines, no human summary.
    expect(piped.stderr).not.toMatch(/^\[|Downloaded/m);
    const summary = JSON.parse(piped.output.toString()) as Record<string, unknown>;
    expect(Object.keys(summary).sort()).toEqual(['downloaded', 'failed', 'folder', 'reused', 'skipped', 'stats']);

    const downloaded = await Promise.all(
      run.downloaded.map(async (filename) => {
        const bytes = await fitsBytes(filename);
        return { filename, bytes: bytes.length, sha256: sha256Hex(bytes) };
      }),
    );
    const received = await Promise.all(run.files.filter((file) => run.downloaded.includes(file.filename)).map(bodyLength));
    expect({ ...summary, downloaded: [...(summary['downloaded'] as { filename: string }[])].sort((a, b) => a.filename.localeCompare(b.filename)) }).toEqual({
      folder: run.folder,
      downloaded,
      skipped: [run.present],
      reused: { count: 0, from: [] },
      failed: [{ filename: run.refused, reason: expect.stringMatching(/404/) }],
      stats: {
        batchSeconds: expect.any(Number),
        bytesReceived: received.reduce((sum, n) => sum + n, 0),
        bytesWritten: downloaded.reduce((sum, file) => sum + file.bytes, 0),
      },
    });
    expect(summary['stats']).toMatchObject({ batchSeconds: expect.toSatisfy((seconds: number) => seconds >= 0 && seconds < 60) });
  });
});
