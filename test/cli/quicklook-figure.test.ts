// `quicklook` as a figure: a colour map, the limb, circles and north through the image's WCS, a title and a colour
// bar, drawn with @napi-rs/canvas and the bundled font; in-process (quicklook-figure-process.test.ts runs the built
// mlso-dl through a pipe, with axes).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { paletteOf } from '../../src-science/fits/colormaps';
import { fitsBytes } from '../../src-main/emulator/synthetic-fits';
import { imageGeometry } from '../../src-main/emulator/image-geometry';
import { temporaryFolder } from '../helpers/fixtures';
import { imageHdu } from '../science/fits/fits-writer';
import { fitsFileOf, mlsoDl } from './fits-test-input';

/** A PNG's size, channels and samples, as fast-png decodes it. */
async function readPng(file: string): Promise<{ width: number; height: number; channels: number; data: ArrayLike<number> }> {
  const png = decode(await readFile(file));
  return { width: png.width, height: png.height, channels: png.channels, data: png.data };
}

const KCOR = { instrument: 'kcor', product: 'pb', filename: '20250324_210304_kcor_l2_pb.fts', dateObs: '2025-03-24T21:03:04' } as const;
const SIZE = 256;

/** RGB at (x, y) of a decoded PNG with 3 or 4 channels. */
function rgbAt(png: Awaited<ReturnType<typeof readPng>>, x: number, y: number): [number, number, number] {
  const at = (y * png.width + x) * png.channels;
  return [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
}

describe('mlso-dl quicklook as a figure', () => {
  it('--colormap --overlay limb,radii=2,north --title --colorbar: the picture in colour, framed, the limb where the header puts the Sun', async () => {
    const input = await fitsFileOf(fitsBytes(KCOR, { imageSize: SIZE, ucompImageSize: 0 }), KCOR.filename);
    const out = path.join(await temporaryFolder(), 'figure.png');
    const run = await mlsoDl('quicklook', input, '--out', out, '--colormap', 'viridis', '--overlay', 'limb,radii=2,north', '--title', '--colorbar', '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout) as { png: { width: number; height: number }; figure: unknown };
    expect(summary.figure).toEqual({ colormap: 'viridis', overlay: 'limb,radii=2,north', title: true, colorBar: true, axes: false });
    const png = await readPng(out);
    expect([png.width, png.height]).toEqual([summary.png.width, summary.png.height]);
    // Text 12 px (256 / 45 is less), margins 10 px, a title band of 24 and 15 for its second line (the title is
    // wider than the picture), and a colour bar band of 38.
    expect([png.width, png.height]).toEqual([SIZE + 20, SIZE + 20 + 24 + 15 + 38]);
    const picture = { x: 10, y: 10 + 24 + 15 };
    // The title is drawn: light pixels in its band, none in the margin above it.
    const titleBand = Array.from({ length: 200 * 16 }, (_, i) =>
      rgbAt(png, 10 + (i % 200), 14 + Math.floor(i / 200)).reduce((most, level) => Math.max(most, level), 0),
    );
    expect(titleBand.filter((level) => level > 128).length).toBeGreaterThan(100);
    // A corner of the picture (faint corona) is a viridis colour: purple-blue, not grey.
    const [r, g, b] = rgbAt(png, picture.x + 2, picture.y + 2);
    expect(b).toBeGreaterThan(g);
    expect(new Set([r, g, b]).size).toBe(3);
    // The limb: yellow, one solar radius from the header's centre (east of it, on its row).
    const geometry = imageGeometry('kcor', KCOR.dateObs, SIZE, SIZE, KCOR.filename);
    const radius = geometry.sunRadiusArcsec / geometry.arcsecPerPixel;
    const limbX = Math.round(picture.x + geometry.centreX - 0.5 - radius);
    const limbY = Math.round(picture.y + SIZE - geometry.centreY + 0.5);
    const near = Array.from({ length: 25 }, (_, i) => rgbAt(png, limbX - 2 + (i % 5), limbY - 2 + Math.floor(i / 5)));
    expect(near.some(([red, green, blue]) => red > 200 && green > 150 && blue < 120)).toBe(true);
    // The colour bar runs the map's colours: its left end viridis' first, its right end its last.
    const barY = picture.y + SIZE + 10 + 5;
    const first = [...new Uint8Array(paletteOf('viridis').buffer, 0, 3)];
    const last = [...new Uint8Array(paletteOf('viridis').buffer, 255 * 4, 3)];
    expect(rgbAt(png, picture.x, barY)).toEqual(first);
    expect(rgbAt(png, picture.x + SIZE - 1, barY)).toEqual(last);
  });

  it('an image without world coordinates: the figure all the same, and a line each saying why there is no overlay and no axes', async () => {
    const input = await fitsFileOf(imageHdu({ bitpix: 16, axes: [40, 30], stored: Array.from({ length: 1200 }, (_, i) => i) }));
    const out = path.join(await temporaryFolder(), 'figure.png');
    const run = await mlsoDl('quicklook', input, '--out', out, '--overlay', 'limb', '--axes', '--title', 'My figure');
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(
      /^HDU 0 has no overlay: its header names no coordinate axes \(CTYPE1, CTYPE2\)\.\nHDU 0 has no axes: its header names no coordinate axes \(CTYPE1, CTYPE2\)\.\nWrote /,
    );
    expect((await readPng(out)).width).toBe(40 + 20);
  });

  it('refuses an unknown colour map or overlay in one line, status 2, before reading the file', async () => {
    expect(await mlsoDl('quicklook', '/no/such.fts', '--out', '/tmp/x.png', '--colormap', 'jet')).toEqual({
      status: 2,
      stdout: '',
      stderr: 'mlso-dl: --colormap "jet" is not one this knows: grey, viridis, inferno, soholasco2, soholasco3.\n',
    });
    expect((await mlsoDl('quicklook', '/no/such.fts', '--out', '/tmp/x.png', '--overlay', 'limb,grid')).stderr).toBe(
      'mlso-dl: --overlay "grid" is not an overlay: give limb, north and radii=R1:R2:..., separated by commas.\n',
    );
    expect((await mlsoDl('quicklook', '/no/such.fts', '--out', '/tmp/x.png', '--overlay', 'radii=0:2')).status).toBe(2);
  });
});
