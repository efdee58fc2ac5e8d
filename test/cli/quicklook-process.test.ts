// quicklook as users run it (the built mlso-dl, node scripts/build-main.mjs first, its PNG through a real pipe):
// tile-compressed files, and images large enough that decoding them whole would take gigabytes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder } from '../helpers/fixtures';
import { EMULATOR_FILE, emulatorFitsBytes, fitsFileOf, pngOf, readPng } from './fits-test-input';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'tile-compressed');

afterEach(async () => {
  await stopBuiltCli();
});

describe('the built mlso-dl quicklook on tile-compressed files', () => {
  it('an fpack-compressed float image (RICE_1, dithered) | cat: the PNG astropy renders, HDU 1 chosen by itself', async () => {
    const run = await runPiped(['quicklook', path.join(FIXTURES, 'float32_rice_dither1.fits'), '--out', '-'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    const png = pngOf(run.output);
    expect([png.width, png.height]).toEqual([64, 48]);
    const wanted = readFileSync(path.join(FIXTURES, 'float32_rice_dither1.grey'));
    const grey = Array.from({ length: 64 * 48 }, (_, i) => png.at(i % 64, Math.floor(i / 64)));
    expect(grey).toEqual(Array.from(wanted));
  });

  it('an HCOMPRESS_1 file: one line naming the compression, status 2', async () => {
    const input = path.join(FIXTURES, 'int16_hcompress.fits');
    const run = await runBuiltCli(['quicklook', input, '--out', '-']);
    expect(run).toEqual({
      status: 2,
      stdout: '',
      stderr: `mlso-dl: ${input} holds no image: HDU 0 (primary), HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'); it holds no image this reader decodes: HDU 1 is tile-compressed with HCOMPRESS_1, which it does not decode (it decodes RICE_1, GZIP_1 and GZIP_2).\n`,
    });
  });
});

describe('the built mlso-dl quicklook as a figure', () => {
  it('--out - --colormap inferno --overlay limb,north --title --colorbar | cat: a framed colour PNG, the bundled font found beside the build', async () => {
    const input = await fitsFileOf(emulatorFitsBytes(128), EMULATOR_FILE);
    const run = await runPiped(['quicklook', input, '--out', '-', '--colormap', 'inferno', '--overlay', 'limb,north', '--title', '--colorbar'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    const png = pngOf(run.output);
    // Text 12 px: margins 10, a title band of 24 (and 15 for each of the 3 more lines the title takes to fit the
    // picture's width) and a colour bar band of 38 around the 128-pixel picture.
    expect([png.width, png.height, png.channels]).toEqual([148, 128 + 20 + 24 + 3 * 15 + 38, 4]);
  });
});

describe('the built mlso-dl on a large image holds a few bands (quicklook) or the headers (header), not the image', () => {
  /**
   * An 8-bit `side` x `side` image, sparse on disk (zeros but for a ramp of 64 rows, so the clip is not empty):
   * large to decode, cheap to make, and read from the page cache.
   */
  async function largeImage(file: string, side: number): Promise<void> {
    const cards = [
      'SIMPLE  =                    T',
      'BITPIX  =                    8',
      'NAXIS   =                    2',
      `NAXIS1  = ${String(side).padStart(20)}`,
      `NAXIS2  = ${String(side).padStart(20)}`,
      'END',
    ];
    const handle = await open(file, 'w');
    await handle.write(
      cards
        .map((card) => card.padEnd(80))
        .join('')
        .padEnd(2880),
    );
    const row = Buffer.from(Array.from({ length: side }, (_, x) => x % 251));
    for (let y = 0; y < 64; y += 1) await handle.write(row, 0, side, 2880 + y * 97 * side);
    await handle.truncate(2880 + Math.ceil((side * side) / 2880) * 2880);
    await handle.close();
  }

  /** Runs the built mlso-dl with these arguments; its peak resident memory in bytes, as the process saw it at exit. */
  async function peakMemory(args: string[]): Promise<{ status: number | null; stderr: string; peakBytes: number }> {
    const folder = await temporaryFolder();
    const preload = path.join(folder, 'peak.cjs');
    const report = path.join(folder, 'peak.txt');
    await writeFile(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS)));`);
    const child = spawn(process.execPath, ['--require', preload, bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { status, stderr, peakBytes: Number(await readFile(report, 'utf8')) * 1024 };
  }

  const MB = 1024 * 1024;

  // Decoded whole, an 8-bit image took 9 bytes a pixel at its peak (single floats, their copy for the clip, the
  // grey levels, the PNG's filtered copy): 5.4 GB for a 600 MB image. Streamed, the image is held a band of a few
  // MB at a time and the PNG compressed as its rows come, so the peak is Node's own 50 MB, the bands and the
  // compressed PNG (small here: the image is mostly one value).
  // Each band's bytes are read into one buffer the file reuses: a new one for each left a pass's worth of them
  // (over 60 MB here) waiting outside the heap for a collection, and the peak moved with the collections' timing.
  // header reads the header blocks alone and skips the data units (it read the whole file: 1.1 GB for a 1 GiB image).
  it('header of a 268 MB image: under 100 MB at the peak (it read the whole file)', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder();
    const input = path.join(folder, 'large.fts');
    await largeImage(input, 16384);
    const run = await peakMemory(['header', input]);
    expect(run.status, run.stderr).toBe(0);
    console.log(`header of a 16384 x 16384 8-bit image: peak ${Math.round(run.peakBytes / MB)} MB`);
    expect(run.peakBytes).toBeLessThan(100 * MB);
  });

  it('a 67 MB image shrunk to 512 pixels: under 130 MB at the peak (over 600 MB decoded whole)', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder();
    const input = path.join(folder, 'large.fts');
    await largeImage(input, 8192);
    const out = path.join(folder, 'look.png');
    const run = await peakMemory(['quicklook', input, '--out', out, '--size', '512']);
    expect(run.status, run.stderr).toBe(0);
    console.log(`quicklook 8192 x 8192 8-bit --size 512: peak ${Math.round(run.peakBytes / MB)} MB`);
    expect(run.peakBytes).toBeLessThan(130 * MB);
    const png = await readPng(out);
    expect([png.width, png.height]).toEqual([512, 512]);
  });

  it('a 67 MB image at full size: under 200 MB at the peak (over 600 MB decoded whole)', { timeout: 120_000 }, async () => {
    const folder = await temporaryFolder();
    const input = path.join(folder, 'large.fts');
    await largeImage(input, 8192);
    const out = path.join(folder, 'look.png');
    const run = await peakMemory(['quicklook', input, '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    console.log(`quicklook 8192 x 8192 8-bit: peak ${Math.round(run.peakBytes / MB)} MB`);
    expect(run.peakBytes).toBeLessThan(200 * MB);
    const png = await readPng(out);
    expect([png.width, png.height]).toEqual([8192, 8192]);
    // The ramp's rows (FITS rows 0, 97, ...) are at the bottom of the picture, the rest black.
    expect(png.at(250, 8191)).toBe(255);
    expect(png.at(250, 8190)).toBe(0);
  });
});
