// Small FITS files for the quick-look's renderer tests, written with the reader's own test writer.
import { concat, emptyPrimary, imageHdu, tableHdu } from '../science/fits/fits-writer';

export interface GradientOptions {
  width?: number;
  height?: number;
  /** Added to every pixel (frames of a sequence differ by it). */
  offset?: number;
  /** Multiplies every pixel. */
  scale?: number;
  dateObs?: string;
}

/** A float32 image whose pixel (x, row) holds offset + scale x (row x width + x): rows count up from the bottom. */
export function gradientFits(options: GradientOptions = {}): Uint8Array {
  const { width = 8, height = 6, offset = 0, scale = 1, dateObs } = options;
  return imageHdu({
    bitpix: -32,
    axes: [width, height],
    stored: Array.from({ length: width * height }, (_, i) => offset + scale * i),
    extraCards: [
      ['TELESCOP', 'COSMO K-Coronagraph', 'telescope'],
      ...(dateObs === undefined ? [] : [['DATE-OBS', dateObs, '[UT] date/time of the observation'] as const]),
      ['BUNIT', 'B/Bsun', 'units of the data'],
      'COMMENT A gradient written for the quick-look tests',
    ],
  });
}

/** Like UCoMP's files: an empty primary HDU, two image extensions of other sizes, and a binary table. */
export function multiExtensionFits(): Uint8Array {
  return concat(
    emptyPrimary([['INSTRUME', 'UCoMP']]),
    imageHdu({ bitpix: -32, axes: [4, 3], stored: Array.from({ length: 12 }, (_, i) => i), extension: true, extname: 'I' }),
    imageHdu({ bitpix: 16, axes: [5, 2, 2], stored: Array.from({ length: 20 }, (_, i) => i * 100), extension: true, extname: 'Q', bzero: 32768 }),
    tableHdu(3, 'WAVES'),
  );
}

export const NOT_FITS = new TextEncoder().encode('<html><body>Service unavailable</body></html>');
