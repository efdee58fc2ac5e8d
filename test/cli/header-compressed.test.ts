// `header` describes a tile-compressed HDU by the image it holds, not by its table's bytes.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { mlsoDl } from './fits-test-input';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'tile-compressed');

describe('mlso-dl header on tile-compressed files', () => {
  it.each([
    ['int16_rice.fits', "# HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): 64 x 48 int16, tile-compressed with RICE_1"],
    ['uint16_rice.fits', "# HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): 64 x 48 int16, rescaled to uint16, tile-compressed with RICE_1"],
    ['float32_gzip1_dither1.fits', "# HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): 64 x 48 float32, tile-compressed with GZIP_1"],
    ['int16_hcompress.fits', "# HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): 64 x 48 int16, tile-compressed with HCOMPRESS_1"],
  ])('%s', async (name, line) => {
    const run = await mlsoDl('header', path.join(FIXTURES, name));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split('\n').filter((text) => text.startsWith('# HDU 1'))).toEqual([line]);
  });
});

describe('the built mlso-dl header on a tile-compressed file', () => {
  afterEach(async () => {
    await stopBuiltCli();
  });

  it('header | grep: the image line through a real pipe', async () => {
    const run = await runPiped(['header', path.join(FIXTURES, 'float32_rice_dither1.fits')], "grep '^# HDU'");
    expect(run.statuses).toEqual([0, 0]);
    expect(run.output.toString()).toBe("# HDU 0 (primary)\n# HDU 1 (BINTABLE, EXTNAME 'COMPRESSED_IMAGE'): 64 x 48 float32, tile-compressed with RICE_1\n");
  });
});
