// A UCoMP file as the emulator makes it, 5:4 like a real one (320 x 256 here, 1280 x 1024 at the real size), through
// the built mlso-dl and a real pipe: `quicklook --overlay limb,north` draws the limb as a circle around the Sun's
// centre (as far from it up and down as left and right), the picture keeps the 1.25 aspect, and `pixel` counts X
// to the width and Y to the height. A square assumption anywhere (the height taken for the width, rows flipped about
// the width) would put the limb's top and bottom 64 pixels off, or refuse pixel (320, 256).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { afterEach, describe, expect, it } from 'vitest';
import type { PixelReport } from '../../src-main/cli/commands/pixel-command';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { readFits } from '../../src-science/fits/fits-file';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { UCOMP_L2 } from '../helpers/emulator-subjects';
import { temporaryFolder } from '../helpers/fixtures';
import { fitsFileOf } from './fits-test-input';

const bytes = fitsBytes(UCOMP_L2, { imageSize: 64, ucompImageSize: 320 });
const header = readFits(bytes, UCOMP_L2.filename);
const value = (key: string): number => (header.hdus[1]!.values.get(key) ?? header.hdus[0]!.values.get(key)) as number;

afterEach(async () => {
  await stopBuiltCli();
});

describe('the built mlso-dl on a 5:4 UCoMP file of the emulator', () => {
  it('quicklook --hdu 1 --overlay limb,north | cat: a 320 x 256 picture, the limb a circle around CRPIX', async () => {
    const file = await fitsFileOf(bytes, UCOMP_L2.filename);
    const out = path.join(await temporaryFolder(), 'ucomp.png');
    const run = await runPiped(['quicklook', file, '--hdu', '1', '--overlay', 'limb,north', '--out', out, '--json'], 'cat');
    expect(run.stderr).toBe('');
    expect(run.statuses).toEqual([0, 0]);
    const summary = JSON.parse(run.output.toString()) as { image: { width: number; height: number }; png: { width: number; height: number } };
    expect(summary.image).toEqual({ width: 320, height: 256 });
    const png = decode(await readFile(out));
    // The picture (figure less its 10-pixel margins, text 12 px) keeps the image's 1.25 aspect.
    expect([png.width - 20, png.height - 20]).toEqual([320, 256]);
    const rgb = (x: number, y: number): number[] => {
      const at = (y * png.width + x) * png.channels;
      return [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
    };
    const yellow = ([r, g, b]: number[]): boolean => r! > 200 && g! > 150 && b! < 120;
    /** Whether the limb's yellow is within 2 pixels of FITS pixel (x, y), drawn in the picture at (x - 0.5, 256 - y + 0.5). */
    const limbNear = (x: number, y: number): boolean => {
      const column = Math.round(10 + x - 0.5);
      const row = Math.round(10 + 256 - y + 0.5);
      for (let dy = -2; dy <= 2; dy += 1) for (let dx = -2; dx <= 2; dx += 1) if (yellow(rgb(column + dx, row + dy))) return true;
      return false;
    };
    const [cx, cy] = [value('CRPIX1'), value('CRPIX2')];
    const radius = value('RSUN_OBS') / value('CDELT1');
    // The roll (CROTA2, under a degree) moves these points by well under a pixel. The limb's top is looked at 20 degrees
    // off north: the outlined north line is drawn over the limb where they cross.
    const offNorth = (20 * Math.PI) / 180;
    for (const [dx, dy] of [
      [radius, 0],
      [-radius, 0],
      [radius * Math.sin(offNorth), radius * Math.cos(offNorth)],
      [0, -radius],
      [radius * Math.SQRT1_2, -radius * Math.SQRT1_2],
    ]) {
      expect([dx, dy, limbNear(cx + dx!, cy + dy!)]).toEqual([dx, dy, true]);
    }
    // Not an ellipse stretched to a square frame: no limb where one would reach, 1.25 radii above the centre.
    expect(limbNear(cx, cy + 1.25 * radius)).toBe(false);
  });

  it('pixel --hdu 1 --json | cat: X runs to the width (320), Y to the height (256)', async () => {
    const file = await fitsFileOf(bytes, UCOMP_L2.filename);
    const corner = await runPiped(['pixel', file, '320', '256', '--hdu', '1', '--json'], 'cat');
    expect(corner.stderr).toBe('');
    expect(corner.statuses).toEqual([0, 0]);
    const report = JSON.parse(corner.output.toString()) as PixelReport;
    expect(report).toMatchObject({ hdu: 1, image: { width: 320, height: 256 }, pixel: { x: 320, y: 256 }, unit: 'ppm' });
    // The top-right corner is west and north of Sun centre, about 2.4 solar radii out.
    const [cx, cy] = [value('CRPIX1'), value('CRPIX2')];
    const radius = value('RSUN_OBS') / value('CDELT1');
    expect(report.world!.solarRadii!).toBeCloseTo(Math.hypot(320 - cx, 256 - cy) / radius, 2);
    const transposed = await runPiped(['pixel', file, '256', '320', '--hdu', '1'], 'cat');
    expect(transposed.statuses).toEqual([2, 0]);
    expect(transposed.stderr).toBe('mlso-dl: Y "320" must be a whole number from 1 to 256 (the image\'s height): FITS counts pixels from 1.\n');
  });
});
