// The colour maps against the tables sampled from matplotlib and sunpy (scripts/fixtures/make_colormaps.py):
// their ends and a middle entry, as matplotlib's own viridis has them.
import { describe, expect, it } from 'vitest';
import { COLORMAPS, cssColour, isColormap, paletteOf } from '../../../src-science/fits/colormaps';

const rgbAt = (name: Parameters<typeof paletteOf>[0], level: number): number[] => [...new Uint8Array(paletteOf(name).buffer, level * 4, 4)];

describe('colour maps', () => {
  it('grey is the level itself, opaque', () => {
    expect(rgbAt('grey', 0)).toEqual([0, 0, 0, 255]);
    expect(rgbAt('grey', 128)).toEqual([128, 128, 128, 255]);
    expect(rgbAt('grey', 255)).toEqual([255, 255, 255, 255]);
  });

  it("viridis runs from matplotlib's dark purple (#440154) through teal to yellow (#fde725)", () => {
    expect(rgbAt('viridis', 0)).toEqual([0x44, 0x01, 0x54, 255]);
    expect(rgbAt('viridis', 255)).toEqual([0xfd, 0xe7, 0x25, 255]);
    expect(cssColour('viridis', 128)).toBe('rgb(33, 145, 140)');
  });

  it('every map has 256 opaque colours and is named as stored preferences name it', () => {
    for (const name of COLORMAPS) {
      const bytes = new Uint8Array(paletteOf(name).buffer);
      expect(bytes.length).toBe(1024);
      for (let level = 0; level < 256; level += 1) expect(bytes[level * 4 + 3]).toBe(255);
      expect(isColormap(name)).toBe(true);
    }
    expect(isColormap('jet')).toBe(false);
    expect(isColormap(undefined)).toBe(false);
  });

  it('the coronagraph maps go from black to white-ish, brightening', () => {
    for (const name of ['soholasco2', 'soholasco3'] as const) {
      const brightness = (level: number) =>
        rgbAt(name, level)
          .slice(0, 3)
          .reduce((sum, c) => sum + c, 0);
      expect(brightness(0)).toBeLessThan(60);
      expect(brightness(255)).toBeGreaterThan(600);
      expect(brightness(200)).toBeGreaterThan(brightness(50));
    }
  });
});
