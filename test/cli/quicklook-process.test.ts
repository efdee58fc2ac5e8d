// quicklook as users run it (the built mlso-dl, node scripts/build-main.mjs first, its PNG through a real pipe):
// tile-compressed files, and images large enough that decoding them whole would take gigabytes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuiltCli, runPiped, stopBuiltCli } from '../helpers/built-cli';
import { pngOf } from './fits-test-input';

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
