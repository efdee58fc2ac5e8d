// A decoded image and a reader of some of its rows: what fits-image.ts makes of a plain image HDU and
// tile-compressed-image.ts of a compressed one. Its own module so the two need not import each other.
export interface FitsImage {
  hdu: number;
  /** NAXIS1: pixels per row. */
  width: number;
  /** NAXIS2 (1 for a one-axis image): rows. */
  height: number;
  /** Physical values row by row, FITS order: the first row is the bottom one as ds9 shows it. */
  pixels: Float32Array | Float64Array;
  bitpix: number;
  bscale: number;
  bzero: number;
  /** How many planes NAXIS3 and beyond hold: only the first is decoded. */
  planes: number;
}

/** An image's size and scaling, and a way to decode some of its rows. */
export interface ImageReader extends Omit<FitsImage, 'pixels'> {
  /** A Float32Array holds every value exactly (8- and 16-bit integers, single floats); else a Float64Array. */
  single: boolean;
  /** Rows decoded together most cheaply: a tile's height for a tile-compressed image, 1 otherwise. */
  rowsPerTile: number;
  /** FITS rows [first, first + count) of the first plane, physical values, into the start of `out`. */
  readRows: (first: number, count: number, out: Float32Array | Float64Array) => void;
}

/** The scaling an image's header gives its stored integers: physical = stored x bscale + bzero, `blank` is NaN. */
export interface IntegerScaling {
  bscale: number;
  bzero: number;
  blank: number | undefined;
}
