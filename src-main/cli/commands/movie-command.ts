// `movie FILES... --out movie.gif|movie.mp4|frames/`: the files as a movie, in time order, each frame through the
// stretch and colour map the player uses, clipped as `quicklook` clips (or its running difference), DATE-OBS burned
// into a corner. An animated GIF is encoded here (gifenc: the colour map is the GIF's palette, so no colour is lost
// to quantizing); numbered PNG frames are written into a folder; MP4 goes through ffmpeg when it is on PATH (H.264),
// and without it the movie is written as a GIF beside, saying so. Frames are made and written one at a time.
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'fast-png';
import type { Canvas } from '@napi-rs/canvas';
import { paletteOf, type ColormapName } from '../../../src-science/fits/colormaps';
import type { CliIo } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import type { GlobalOptions } from '../global-options';
import { printJson } from '../output/cli-output';
import { writeProblem } from './file-problems';
import { parseHdu, stillWanted } from './fits-file-input';
import { parseClip, parseSize, parseStretch } from './image-options';
import { localOutput } from './local-output';
import { movieFrames, orderedInputs, type MovieFrame } from './movie-frames';
import { campaignFilesOnDisk } from './movie-campaign';
import { openFileInPieces, temporaryFileBeside } from './output-file';
import { canvasWithFont, parseColormap } from './quicklook-figure';

export interface MovieOptions {
  out: string;
  stretch?: string;
  clip?: string;
  hdu?: string;
  size?: string;
  fps?: string;
  difference?: boolean;
  colormap?: string;
  from?: string;
  to?: string;
  json?: boolean;
  /** The campaign whose files on disk make the movie, instead of FILES. */
  campaign?: string;
  stateDir?: string;
}

type MovieFormat = 'gif' | 'mp4' | 'frames';

interface MovieSummary {
  out: string;
  format: MovieFormat;
  frames: number;
  width: number;
  height: number;
  fps: number;
  seconds: number;
  /** Set when MP4 was asked for and ffmpeg was not on PATH: the GIF written instead. */
  note?: string;
}

export async function movieCommand(globals: GlobalOptions, io: CliIo, files: readonly string[], options: MovieOptions): Promise<number> {
  const out = localOutput(globals, io);
  if (files.length > 0 && options.campaign !== undefined) throw new UsageError('Give FITS files or --campaign NAME, not both.');
  if (files.length === 0 && options.campaign === undefined) throw new UsageError('Give the FITS files of the movie, such as *.fts, or --campaign NAME.');
  const choice = {
    stretch: parseStretch(options.stretch),
    percents: parseClip(options.clip),
    size: parseSize(options.size),
    hdu: parseHdu(options.hdu),
    difference: options.difference === true,
  };
  const fps = parseFps(options.fps);
  const colormap = parseColormap(options.colormap);
  const from = parseDay('--from', options.from);
  const to = parseDay('--to', options.to);
  let format = formatOf(options.out);
  let target = options.out;
  let note: string | undefined;
  if (format === 'mp4' && !ffmpegOnPath()) {
    target = options.out.replace(/\.mp4$/i, '.gif');
    format = 'gif';
    note = `ffmpeg is not on PATH, so the movie is an animated GIF (${target}); install ffmpeg for MP4.`;
    out.info(note);
  }
  const started = performance.now();
  const paths = options.campaign === undefined ? files : await campaignFilesOnDisk(options.campaign, options.stateDir);
  const inputs = orderedInputs(paths, choice.hdu, from, to);
  if (inputs.length < (choice.difference ? 2 : 1))
    throw new UsageError(`${choice.difference ? 'A running difference needs two files' : 'No file'} within --from and --to.`);
  for (const input of inputs) {
    if (input.shortBlock) out.error(input.shortBlock);
    if (input.dateObs === null) out.info(`Note: ${input.path} has no DATE-OBS: its frame comes before the dated ones, labelled with its name.`);
  }
  const frames = choice.difference ? inputs.length - 1 : inputs.length;
  const writer = await writerFor(format, target, fps, colormap);
  const burnLabel = await labelBurner();
  let count = 0;
  let size = { width: 0, height: 0 };
  try {
    for (const frame of movieFrames(inputs, choice)) {
      await stillWanted(io.signal);
      burnLabel(frame);
      await writer.add(frame);
      count += 1;
      size = { width: frame.width, height: frame.height };
    }
    await writer.finish(io.signal);
  } catch (error) {
    await writer.abandon();
    if (!io.signal?.aborted) throw error;
    const left = format === 'frames' ? `the ${count} written are in ${target}` : `${target} was not written`;
    out.error(`Interrupted after ${count} of ${frames} frames: ${left}.`);
    throw io.signal.reason;
  }
  const summary: MovieSummary = {
    out: target,
    format,
    frames: count,
    ...size,
    fps,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    ...(note ? { note } : {}),
  };
  if (options.json) printJson(out, summary);
  else out.info(`Wrote ${target}: ${count} frames of ${size.width} x ${size.height} at ${fps} per second (${summary.seconds} s).`);
  return EXIT_OK;
}

function parseFps(value: string | undefined): number {
  if (value === undefined) return 10;
  const fps = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || fps < 1 || fps > 60) throw new UsageError(`--fps "${value}" must be a number of frames per second from 1 to 60.`);
  return fps;
}

function parseDay(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?)?$/.test(value))
    throw new UsageError(`${name} "${value}" must be a date, YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS (UT).`);
  return value;
}

function formatOf(out: string): MovieFormat {
  if (/\.gif$/i.test(out)) return 'gif';
  if (/\.mp4$/i.test(out)) return 'mp4';
  if (out.endsWith('/') || out.endsWith(path.sep) || (existsSync(out) && statSync(out).isDirectory())) return 'frames';
  throw new UsageError(`--out "${out}" must end in .gif or .mp4, or name a folder for numbered PNG frames (end it with /).`);
}

function ffmpegOnPath(): boolean {
  const found = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  return found.error === undefined && found.status === 0;
}

interface MovieWriter {
  add(frame: MovieFrame): Promise<void>;
  /** Completes the movie under its name; a stop signal ends the wait for ffmpeg (and the movie). */
  finish(signal: AbortSignal | undefined): Promise<void>;
  /** Stops without finishing (an error or a stop signal): nothing half-written is left under any name. */
  abandon(): Promise<void>;
}

async function writerFor(format: MovieFormat, target: string, fps: number, colormap: ColormapName): Promise<MovieWriter> {
  const palette = paletteOf(colormap);
  const rgb = (frame: MovieFrame, channels: 3 | 4): Uint8Array => {
    const bytes = new Uint8Array(palette.buffer);
    const out = new Uint8Array(frame.levels.length * channels);
    for (let i = 0; i < frame.levels.length; i += 1) {
      const at = frame.levels[i]! * 4;
      out[i * channels] = bytes[at]!;
      out[i * channels + 1] = bytes[at + 1]!;
      out[i * channels + 2] = bytes[at + 2]!;
      if (channels === 4) out[i * channels + 3] = 255;
    }
    return out;
  };
  if (format === 'frames') return framesWriter(target, (frame) => rgb(frame, 3));
  if (format === 'gif') return gifWriter(target, fps, palette);
  return ffmpegWriter(target, fps, (frame) => rgb(frame, 3));
}

/** Numbered PNG frames in a folder, each written whole: a movie cut short leaves the frames made so far. */
async function framesWriter(target: string, rgb: (frame: MovieFrame) => Uint8Array): Promise<MovieWriter> {
  try {
    await mkdir(target, { recursive: true });
  } catch (error) {
    throw new UsageError(`Cannot write ${target}: ${writeProblem(error)}.`);
  }
  let index = 0;
  return {
    add: async (frame) => {
      index += 1;
      const file = path.join(target, `frame-${String(index).padStart(5, '0')}.png`);
      try {
        await writeFile(file, encode({ width: frame.width, height: frame.height, data: rgb(frame), channels: 3 }));
      } catch (error) {
        throw new UsageError(`Cannot write ${file}: ${writeProblem(error)}.`);
      }
    },
    finish: async () => undefined,
    abandon: async () => undefined,
  };
}

/**
 * An animated GIF, encoded here. Manual mode: each frame's bytes go to the file as it is encoded and the buffer is
 * emptied, so memory does not grow with the movie; the file takes its name only once complete (output-file.ts).
 */
async function gifWriter(target: string, fps: number, palette: Uint32Array): Promise<MovieWriter> {
  // gifenc is CommonJS: Node hands its exports over as the default export.
  const gifenc = (await import('gifenc')) as typeof import('gifenc') & { default?: typeof import('gifenc') };
  const GIFEncoder = gifenc.default?.GIFEncoder ?? gifenc.GIFEncoder;
  const gif = GIFEncoder({ auto: false });
  const colours = Array.from({ length: 256 }, (_, level) => [...new Uint8Array(palette.buffer, level * 4, 3)]);
  const file = await openFileInPieces(target);
  let first = true;
  const flush = async (): Promise<void> => {
    await file.write(gif.bytesView());
    gif.reset();
  };
  return {
    add: async (frame) => {
      if (first) gif.writeHeader();
      gif.writeFrame(frame.levels, frame.width, frame.height, {
        ...(first ? { palette: colours, repeat: 0, first: true } : {}),
        delay: Math.round(1000 / fps),
      });
      first = false;
      await flush();
    },
    finish: async () => {
      gif.finish();
      await flush();
      await file.commit();
    },
    abandon: () => file.discard(),
  };
}

/**
 * MP4 (H.264, yuv420p) by ffmpeg reading raw RGB frames from a pipe into a temporary file beside the target, renamed
 * once ffmpeg has finished it. Its stderr is kept: what it says when it stops early is the reason given.
 */
async function ffmpegWriter(target: string, fps: number, rgb: (frame: MovieFrame) => Uint8Array): Promise<MovieWriter> {
  const file = await temporaryFileBeside(target);
  let child: ReturnType<typeof spawn> | undefined;
  let stderr = '';
  let exited: Promise<number | null> = Promise.resolve(null);
  const start = (frame: MovieFrame): void => {
    child = spawn(
      'ffmpeg',
      ['-y', '-loglevel', 'error', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${frame.width}x${frame.height}`, '-r', String(fps), '-i', '-'].concat([
        '-vf',
        'pad=ceil(iw/2)*2:ceil(ih/2)*2',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        // Named by the format: the temporary name does not end in .mp4.
        '-f',
        'mp4',
        file.path,
      ]),
      { stdio: ['pipe', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(0, 2000)));
    child.stderr!.on('error', () => undefined);
    child.stdin!.on('error', () => undefined); // ffmpeg stopping early shows in its exit status
    exited = new Promise((resolve) => {
      child!.on('error', () => resolve(null));
      child!.on('close', (code) => resolve(code));
    });
  };
  const failure = (code: number | null): UsageError =>
    new UsageError(`ffmpeg could not write ${target}: ${ffmpegReason(stderr, code)}. A smaller --size, or a GIF (--out NAME.gif), may do.`);
  return {
    add: async (frame) => {
      if (!child) start(frame);
      if (child!.stdin!.write(rgb(frame))) return;
      // ffmpeg that has stopped takes no more and says no more 'drain': its exit ends the wait.
      const drained = new Promise<boolean>((resolve) => child!.stdin!.once('drain', () => resolve(true)));
      if (!(await Promise.race([drained, exited.then(() => false)]))) throw failure(await exited);
    },
    finish: async (signal) => {
      child?.stdin!.end();
      const onAbort = (): void => void child?.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const code = await exited;
        signal?.throwIfAborted();
        if (child && code !== 0) throw failure(code);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      await file.commit();
    },
    abandon: async () => {
      child?.kill('SIGKILL');
      await exited;
      await file.discard();
    },
  };
}

/** What ffmpeg said first, without the "[libx264 @ 0x55...]" it puts before a line, or its exit status. */
function ffmpegReason(stderr: string, code: number | null): string {
  const line = stderr
    .split('\n')
    .map((text) => text.replace(/^(\[[^\]]* @ 0x[0-9a-f]+\] )+/, '').trim())
    .find((text) => text !== '');
  return line ?? (code === null ? 'it could not be started' : `exit status ${code}`);
}

/**
 * What burns DATE-OBS into the lower-left corner of each frame, white on a darkened band, in the colour map's
 * brightest level. One canvas serves the whole movie (its frames are one size): made per frame, it cost a canvas
 * and its pixels 200 times over for a 200-frame movie.
 */
async function labelBurner(): Promise<(frame: MovieFrame) => void> {
  const createCanvas = await canvasWithFont();
  let made: Canvas | undefined;
  return (frame) => {
    const textSize = Math.max(10, Math.round(frame.width / 40));
    const bandHeight = Math.min(frame.height, Math.round(textSize * 1.8));
    const canvas = made?.width === frame.width && made.height === bandHeight ? made : (made = createCanvas(frame.width, bandHeight));
    // The band is as long as the label (the rest of the canvas is not used for this frame).
    const bandWidth = Math.min(frame.width, Math.ceil(textSize * frame.label.length * 0.7) + textSize);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = '#fff';
    ctx.font = `${textSize}px "DejaVu Sans"`;
    ctx.textBaseline = 'middle';
    ctx.fillText(frame.label, textSize / 2, bandHeight / 2);
    const mask = ctx.getImageData(0, 0, bandWidth, bandHeight).data;
    const top = frame.height - bandHeight;
    for (let y = 0; y < bandHeight; y += 1) {
      for (let x = 0; x < bandWidth; x += 1) {
        const at = (top + y) * frame.width + x;
        const ink = mask[(y * bandWidth + x) * 4]!;
        // The band darkens what is under it (levels are in brightness order), the text is the brightest level.
        frame.levels[at] = ink > 127 ? 255 : frame.levels[at]! >> 2;
      }
    }
  };
}
