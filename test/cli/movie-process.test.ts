// `mlso-dl movie` as users run it: the built mlso-dl (node scripts/build-main.mjs first) on emulator KCor files,
// writing an animated GIF, numbered PNG frames, an MP4 through ffmpeg (read back with ffprobe) and, without ffmpeg
// on PATH, the GIF it falls back to for MP4.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decode } from 'fast-png';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kcorFileRecord, recordCampaignFiles } from '../../scripts/bench/campaign-records';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { bin, runPiped, startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { ffmpegPresent, ffmpegRequired, probeVideo } from '../helpers/ffprobe';
import { waitFor } from '../helpers/wait-for';
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

/** `count` KCor files of `side` x `side` pixels, 15 s apart, in a new folder. */
async function kcorFiles(count: number, side: number): Promise<string[]> {
  const folder = await temporaryFolder();
  const written: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const dateObs = new Date(Date.UTC(2025, 2, 24, 22, 0, i * 15)).toISOString().slice(0, 19);
    const filename = `${dateObs.replace(/[-:]/g, '').replace('T', '_')}_kcor_l2_pb.fts`;
    await writeFile(path.join(folder, filename), fitsBytes({ instrument: 'kcor', product: 'pb', filename, dateObs }, { imageSize: side, ucompImageSize: 0 }));
    written.push(path.join(folder, filename));
  }
  return written;
}

/** A copy of a FITS file whose DATE-OBS card is made a COMMENT (same length, so the header stays whole). */
async function undatedCopy(file: string, name: string): Promise<string> {
  const text = (await readFile(file)).toString('latin1');
  const at = text.indexOf('DATE-OBS=');
  const copy = path.join(path.dirname(file), name);
  await writeFile(copy, Buffer.from(`${text.slice(0, at)}COMMENT ${text.slice(at + 8)}`, 'latin1'));
  return copy;
}

/** A float image of `width` x `height` zeros with a DATE-OBS, in the fewest cards a reader needs. */
async function plainFits(file: string, width: number, height: number, dateObs: string): Promise<void> {
  const cards = ['SIMPLE  =                    T', 'BITPIX  =                  -32', 'NAXIS   =                    2'];
  cards.push(`NAXIS1  = ${String(width).padStart(20)}`, `NAXIS2  = ${String(height).padStart(20)}`, `DATE-OBS= '${dateObs}'`, 'END');
  const header = Buffer.from(
    cards
      .map((card) => card.padEnd(80))
      .join('')
      .padEnd(2880),
    'latin1',
  );
  await writeFile(file, Buffer.concat([header, Buffer.alloc(Math.ceil((width * height * 4) / 2880) * 2880)]));
}

/** Starts a long movie, stops it with SIGINT once its file has some bytes, and returns how it ended. */
async function interruptedMovie(out: string): Promise<{ status: number | string; stderr: string }> {
  // 400 frames of 512 x 512: long enough to be caught in the middle.
  const inputs = await kcorFiles(8, 512);
  const run = startBuiltCli(['movie', ...Array.from({ length: 50 }, () => inputs).flat(), '--out', out]);
  const folder = path.dirname(out);
  const started = async (): Promise<boolean> => {
    for (const name of await readdir(folder)) if ((await stat(path.join(folder, name))).size > 0) return true;
    return false;
  };
  let ended = false;
  void run.exited.then(() => (ended = true));
  await waitFor(async () => ended || (await started()), 'the movie to have its first bytes written', 60_000);
  run.child.kill('SIGINT');
  return { status: await run.exited, stderr: run.stderr() };
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
  it('a refusal, or --out in a folder that is not there: one line, status 2, nothing left beside the movie', async () => {
    const folder = await temporaryFolder();
    const small = await kcorFiles(1, 32);
    const refused = await runPiped(['movie', ...files, ...small, '--out', path.join(folder, 'movie.gif')], 'cat');
    expect(refused.statuses).toEqual([2, 0]);
    expect(refused.stderr).toMatch(/: a movie's frames must be one size\.\n$/);
    expect(await readdir(folder)).toEqual([]);
    const missing = path.join(folder, 'not-there', 'movie.gif');
    const nowhere = await runPiped(['movie', ...files, '--out', missing], 'cat');
    expect(nowhere.stderr).toBe(`mlso-dl: Cannot write ${missing}: its folder does not exist.\n`);
    expect(nowhere.statuses).toEqual([2, 0]);
    expect(await readdir(folder)).toEqual([]);
  });

  it.runIf(ffmpegPresent() || ffmpegRequired())('frames too wide for H.264: what ffmpeg said, in one line, status 2, nothing left', async () => {
    const folder = await temporaryFolder();
    const wide = [path.join(folder, 'a.fts'), path.join(folder, 'b.fts')];
    await plainFits(wide[0]!, 16386, 2, '2025-03-24T21:00:00');
    await plainFits(wide[1]!, 16386, 2, '2025-03-24T21:00:15');
    const outFolder = await temporaryFolder();
    const out = path.join(outFolder, 'movie.mp4');
    const run = await runPiped(['movie', ...wide, '--out', out], 'cat');
    expect(run.stderr).toBe(`mlso-dl: ffmpeg could not write ${out}: invalid width x height (16386x2). A smaller --size, or a GIF (--out NAME.gif), may do.\n`);
    expect(run.statuses).toEqual([2, 0]);
    expect(await readdir(outFolder)).toEqual([]);
  });

  it('Ctrl-C while a GIF is made: "Interrupted" with the frames made, status 130, nothing left', async () => {
    const folder = await temporaryFolder();
    const out = path.join(folder, 'movie.gif');
    const run = await interruptedMovie(out);
    expect(run.status).toBe(130);
    expect(run.stderr).toMatch(new RegExp(`^Interrupted after \\d+ of 400 frames: ${out.replace(/[.]/g, '\\.')} was not written\\.\\n$`));
    expect(await readdir(folder)).toEqual([]);
  });

  it.runIf(ffmpegPresent() || ffmpegRequired())('Ctrl-C while ffmpeg makes an MP4: the same, and nothing left', async () => {
    const folder = await temporaryFolder();
    const out = path.join(folder, 'movie.mp4');
    const run = await interruptedMovie(out);
    expect(run.status).toBe(130);
    expect(run.stderr).toMatch(/^Interrupted after \d+ of 400 frames: .*movie\.mp4 was not written\.\n$/);
    expect(await readdir(folder)).toEqual([]);
  });

  it('a file without DATE-OBS: its frame is made, with a note saying where it goes and what labels it', async () => {
    const undated = await undatedCopy(files[0]!, 'no-date.fts');
    const out = path.join(await temporaryFolder(), 'movie.gif');
    const run = await runPiped(['movie', ...files, undated, '--out', out, '--json'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    expect(run.stderr).toBe(`Note: ${undated} has no DATE-OBS: its frame comes before the dated ones, labelled with its name.\n`);
    expect(JSON.parse(run.output.toString())).toMatchObject({ frames: FRAMES + 1 });
  });
});
