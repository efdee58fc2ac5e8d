// `mlso-dl movie` as users run it: the built mlso-dl (node scripts/build-main.mjs first) on emulator KCor files,
// writing an animated GIF, numbered PNG frames, an MP4 through ffmpeg (read back with ffprobe) and, without ffmpeg
// on PATH, the GIF it falls back to for MP4.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decode } from 'fast-png';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kcorFileRecord, recordCampaignFiles } from '../../scripts/bench/campaign-records';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { bin, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { ffmpegPresent, ffmpegRequired, probeVideo } from '../helpers/ffprobe';
import { CampaignStore } from '../../src-main/core/campaigns/campaign-store';
import { openStateFile } from '../core/state/state-file';

const FRAMES = 12;
let folder: string;
let files: string[];

/** KCor files 15 s apart, written out of time order (the movie puts them in DATE-OBS order). */
beforeAll(async () => {
  folder = await temporaryFolder();
  files = [];
  for (let i = FRAMES - 1; i >= 0; i -= 1) {
    const dateObs = new Date(Date.UTC(2025, 2, 24, 21, 0, i * 15)).toISOString().slice(0, 19);
    const filename = `${dateObs.replace(/[-:]/g, '').replace('T', '_')}_kcor_l2_pb.fts`;
    await writeFile(path.join(folder, filename), fitsBytes({ instrument: 'kcor', product: 'pb', filename, dateObs }, { imageSize: 96, ucompImageSize: 0 }));
    files.push(path.join(folder, filename));
  }
});

afterEach(async () => {
  await stopBuiltCli();
});

/** A GIF's frames (one graphic control extension each, as gifenc writes them) and their delays in ms. */
function gifFrames(bytes: Buffer): number[] {
  const delays: number[] = [];
  for (let at = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04])); at >= 0; at = bytes.indexOf(Buffer.from([0x21, 0xf9, 0x04]), at + 1)) {
    delays.push(bytes.readUInt16LE(at + 4) * 10);
  }
  return delays;
}

/** The built mlso-dl with PATH holding only an empty folder: no ffmpeg to be found. */
async function runWithoutFfmpeg(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const empty = await mkdtemp(path.join(os.tmpdir(), 'no-ffmpeg-'));
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PATH: empty } });
  child.on('error', () => undefined);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { status, stdout, stderr };
}

describe('the built mlso-dl movie', () => {
  it('--out movie.gif --fps 5 --json | cat: every file one frame, in time order, 200 ms each, looping', async () => {
    const out = path.join(await temporaryFolder(), 'movie.gif');
    const run = await runPiped(['movie', ...files, '--out', out, '--fps', '5', '--colormap', 'soholasco2', '--json'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(JSON.parse(run.output.toString())).toMatchObject({ out, format: 'gif', frames: FRAMES, width: 96, height: 96, fps: 5 });
    const gif = await readFile(out);
    expect(gif.subarray(0, 6).toString()).toBe('GIF89a');
    expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([96, 96]);
    expect(gifFrames(gif)).toEqual(new Array(FRAMES).fill(200));
    expect(gif.includes(Buffer.from('NETSCAPE2.0'))).toBe(true);
  });

  it('--difference --out frames/: numbered PNG frames, one fewer than the files, each with its time burned in', async () => {
    const out = `${await temporaryFolder()}/frames/`;
    const run = await runPiped(['movie', ...files, '--out', out, '--difference', '--from', '2025-03-24T21:00:30'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.stderr).toMatch(/^Wrote .*frames\/: 9 frames of 96 x 96 at 10 per second/);
    const written = (await readdir(out)).sort();
    expect(written).toEqual(Array.from({ length: 9 }, (_, i) => `frame-${String(i + 1).padStart(5, '0')}.png`));
    const frame = decode(await readFile(path.join(out, written[0]!)));
    expect([frame.width, frame.height, frame.channels]).toEqual([96, 96, 3]);
    // The lower-left corner holds the burned-in time: white text on a darkened band.
    const bottom = Array.from({ length: 96 * 6 }, (_, i) => frame.data[((96 - 8 + Math.floor(i / 96)) * 96 + (i % 96)) * 3]!);
    expect(bottom.some((level) => level === 255)).toBe(true);
  });

  // Skipped only on a machine without ffmpeg outside CI; in CI (which installs it) a missing ffmpeg fails here.
  it.runIf(ffmpegPresent() || ffmpegRequired())('--out movie.mp4 --fps 6 --json | cat with ffmpeg on PATH: H.264 that ffprobe reads back whole', async () => {
    expect(ffmpegPresent(), 'ffmpeg and ffprobe are not on PATH: .ci/run installs them (apt-get install ffmpeg)').toBe(true);
    const folder = await temporaryFolder();
    const out = path.join(folder, 'movie.mp4');
    const run = await runPiped(['movie', ...files, '--out', out, '--fps', '6', '--json'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(JSON.parse(run.output.toString())).toMatchObject({ out, format: 'mp4', frames: FRAMES, width: 96, height: 96, fps: 6 });
    const probed = probeVideo(out);
    expect(probed).toMatchObject({ codec: 'h264', width: 96, height: 96, frames: FRAMES });
    expect(probed.seconds).toBeCloseTo(FRAMES / 6, 2);
    // Only the movie: the partial file ffmpeg wrote into was renamed.
    expect(await readdir(folder)).toEqual(['movie.mp4']);
  });

  it('--out movie.mp4 without ffmpeg on PATH: says so and writes the GIF instead', async () => {
    const out = path.join(await temporaryFolder(), 'movie.mp4');
    const run = await runWithoutFfmpeg(['movie', ...files, '--out', out]);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`ffmpeg is not on PATH, so the movie is an animated GIF (${out.replace(/\.mp4$/, '.gif')}); install ffmpeg for MP4.`);
    expect(gifFrames(await readFile(out.replace(/\.mp4$/, '.gif')))).toHaveLength(FRAMES);
  });

  it("--campaign NAME: the campaign's files that are downloaded and on disk, from the state folder", async () => {
    const stateDir = await temporaryFolder();
    const { state, ledger } = openStateFile(path.join(stateDir, 'downloads.sqlite'));
    const store = new CampaignStore(state);
    const campaign = store.create({ name: 'CME watch', folder, layout: '', queries: [], autoSyncHours: null });
    // The first eight files downloaded (done, on disk); the rest listed and still on their way.
    const listed = [...files].sort();
    const ids = recordCampaignFiles(
      store,
      ledger,
      campaign.id,
      listed.map((file) => kcorFileRecord(file, 1, null)),
    ).slice(0, 8);
    for (const id of ids) ledger.markDone(id, { sha256: 'x', bytesReceived: 1, bytesWritten: 1 });
    ledger.close();
    const out = path.join(await temporaryFolder(), 'campaign.gif');
    const run = await runPiped(['movie', '--campaign', 'CME watch', '--state-dir', stateDir, '--out', out, '--json'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    expect(JSON.parse(run.output.toString())).toMatchObject({ format: 'gif', frames: 8 });
    expect(gifFrames(await readFile(out))).toHaveLength(8);
    const unknown = await runPiped(['movie', '--campaign', 'nope', '--state-dir', stateDir, '--out', out], 'cat');
    expect(unknown.statuses).toEqual([2, 0]);
    expect((await runPiped(['movie', files[0]!, '--campaign', 'CME watch', '--out', out], 'cat')).stderr).toBe(
      'mlso-dl: Give FITS files or --campaign NAME, not both.\n',
    );
  });

  it('frames of two sizes, a file that is not FITS, or a bad --out: one line, status 2, no movie left', async () => {
    const other = path.join(folder, 'other-size.fts');
    await writeFile(
      other,
      fitsBytes({ instrument: 'kcor', product: 'pb', filename: 'x.fts', dateObs: '2025-03-24T21:10:00' }, { imageSize: 64, ucompImageSize: 0 }),
    );
    const out = path.join(await temporaryFolder(), 'movie.gif');
    const mixed = await runPiped(['movie', ...files, other, '--out', out], 'cat');
    expect(mixed.statuses).toEqual([2, 0]);
    expect(mixed.stderr).toBe(`mlso-dl: ${other} is 64 x 64 pixels and the frames before it 96 x 96: a movie's frames must be one size.\n`);
    await expect(readFile(out)).rejects.toThrow(/ENOENT/);
    const notes = path.join(folder, 'notes.fts');
    await writeFile(notes, 'not FITS\n'.repeat(400));
    expect((await runPiped(['movie', notes, '--out', out], 'cat')).statuses).toEqual([2, 0]);
    expect((await runPiped(['movie', ...files, '--out', path.join(folder, 'movie.avi')], 'cat')).stderr).toMatch(
      /must end in \.gif or \.mp4, or name a folder/,
    );
  });
});
