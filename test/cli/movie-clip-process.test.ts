// The movie's clip is the quick look's, as users run both (the built mlso-dl, node scripts/build-main.mjs first):
// on a 1280 x 1024 frame astropy wrote (scripts/fixtures/make_movie_clip.py), the movie's first frame shows every
// pixel at the level `quicklook` gives it, and both at numpy's clip and levels, full size and with --size.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decode } from 'fast-png';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'movie-clip');

interface Expected {
  width: number;
  height: number;
  clip: [number, number];
  greySha256: string;
  greyCounts: number[];
}

let expected: Expected;
let input: string;

beforeAll(async () => {
  expected = JSON.parse(await readFile(path.join(FIXTURES, 'expected.json'), 'utf8')) as Expected;
  input = path.join(await temporaryFolder(), '20250324_210000_test.fts');
  await writeFile(input, gunzipSync(await readFile(path.join(FIXTURES, 'frame-1280x1024.fits.gz'))));
});

afterEach(async () => {
  await stopBuiltCli();
});

/** The levels of a PNG (grey, or RGB of the grey colour map: its red channel), rows top first. */
async function levelsOf(file: string): Promise<{ width: number; height: number; levels: Uint8Array }> {
  const png = decode(await readFile(file));
  const levels = new Uint8Array(png.width * png.height);
  for (let i = 0; i < levels.length; i += 1) levels[i] = png.data[i * png.channels]!;
  return { width: png.width, height: png.height, levels };
}

async function quicklook(size?: number): Promise<{ clip: [number, number]; levels: Uint8Array; width: number; height: number }> {
  const out = path.join(await temporaryFolder(), 'look.png');
  const run = await runBuiltCli(['quicklook', input, '--out', out, '--json', ...(size === undefined ? [] : ['--size', String(size)])]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const summary = JSON.parse(run.stdout) as { clip: { low: number; high: number } };
  return { clip: [summary.clip.low, summary.clip.high], ...(await levelsOf(out)) };
}

async function movieFirstFrame(size?: number): Promise<{ levels: Uint8Array; width: number; height: number }> {
  const out = `${await temporaryFolder()}/frames/`;
  const run = await runBuiltCli(['movie', input, '--out', out, ...(size === undefined ? [] : ['--size', String(size)])]);
  expect(run.status).toBe(0);
  return levelsOf(path.join(out, 'frame-00001.png'));
}

/**
 * How many pixels of the rows above the movie's burned-in label differ between two pictures of one size. The label
 * band lies within the bottom tenth of the rows (its height is 4.5 % of the width, at least 18 pixels).
 */
function differing(a: Uint8Array, b: Uint8Array, width: number, height: number): { pixels: number; compared: number } {
  const compared = width * (height - Math.ceil(height / 10));
  let pixels = 0;
  for (let i = 0; i < compared; i += 1) if (a[i] !== b[i]) pixels += 1;
  return { pixels, compared };
}

describe('the built mlso-dl movie clips as quicklook does', () => {
  it("quicklook of the 1280 x 1024 frame: numpy's 1-99.5 % clip and astropy's asinh levels, pixel for pixel", async () => {
    const look = await quicklook();
    expect(look.clip).toEqual(expected.clip);
    expect([look.width, look.height]).toEqual([expected.width, expected.height]);
    const counts = new Array<number>(256).fill(0);
    for (const level of look.levels) counts[level]! += 1;
    expect(counts).toEqual(expected.greyCounts);
    expect(createHash('sha256').update(look.levels).digest('hex')).toBe(expected.greySha256);
  });

  it("the movie's first frame of it: every pixel at quicklook's level (so numpy's), the label's rows aside", async () => {
    const look = await quicklook();
    const frame = await movieFirstFrame();
    expect([frame.width, frame.height]).toEqual([expected.width, expected.height]);
    expect(differing(frame.levels, look.levels, frame.width, frame.height)).toEqual({ pixels: 0, compared: 1280 * 921 });
  });

  it('with --size 320: the clip of the full-size image, as quicklook --size 320 takes it, every pixel at its level', async () => {
    const look = await quicklook(320);
    expect(look.clip).toEqual(expected.clip);
    const frame = await movieFirstFrame(320);
    expect([frame.width, frame.height]).toEqual([320, 256]);
    expect(differing(frame.levels, look.levels, 320, 256)).toEqual({ pixels: 0, compared: 320 * 230 });
  });
});
