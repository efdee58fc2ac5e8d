// Colour maps for images: grey, and the community's maps (colormap-tables.ts, sampled from matplotlib and sunpy),
// each as a palette of 256 opaque RGBA words indexed by the grey level a clip and stretch gave a pixel.
import { COLORMAP_TABLES } from './colormap-tables';

export const COLORMAPS = ['grey', 'viridis', 'inferno', 'soholasco2', 'soholasco3'] as const;
export type ColormapName = (typeof COLORMAPS)[number];

export const COLORMAP_LABELS: Readonly<Record<ColormapName, string>> = {
  grey: 'Grey',
  viridis: 'Viridis (perceptually uniform)',
  inferno: 'Inferno (perceptually uniform)',
  soholasco2: 'LASCO C2, red (sunpy)',
  soholasco3: 'LASCO C3, blue (sunpy)',
};

const palettes = new Map<ColormapName, Uint32Array>();

/** Level g's colour as the 32-bit word whose bytes in memory are R, G, B, 255 (written through bytes, any byte order). */
export function paletteOf(name: ColormapName): Uint32Array {
  let palette = palettes.get(name);
  if (!palette) {
    palette = new Uint32Array(256);
    const bytes = new Uint8Array(palette.buffer);
    const table = name === 'grey' ? undefined : COLORMAP_TABLES[name];
    for (let level = 0; level < 256; level += 1) {
      const [r, g, b] = table ? [0, 2, 4].map((at) => parseInt(table.slice(level * 6 + at, level * 6 + at + 2), 16)) : [level, level, level];
      bytes.set([r!, g!, b!, 255], level * 4);
    }
    palettes.set(name, palette);
  }
  return palette;
}

/** The colour of level g as CSS (for a colour bar's gradient stops). */
export function cssColour(name: ColormapName, level: number): string {
  const bytes = new Uint8Array(paletteOf(name).buffer, level * 4, 3);
  return `rgb(${bytes[0]}, ${bytes[1]}, ${bytes[2]})`;
}

/** A name from stored preferences or a command line, when it is one of ours. */
export function isColormap(name: unknown): name is ColormapName {
  return typeof name === 'string' && (COLORMAPS as readonly string[]).includes(name);
}
