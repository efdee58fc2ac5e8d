// Decodes a tile-compressed image (FITS standard 4.0, section 10): each row of the BINTABLE holds one tile, its
// bytes in the heap through the COMPRESSED_DATA descriptor, compressed with RICE_1 (rice-decoder.ts), GZIP_1 (the
// tile's big-endian values, gzipped) or GZIP_2 (the same with the values' bytes shuffled: every value's first
// byte, then every second byte ...). Floats are mostly quantized to integers first: a tile's value is then
// ZZERO + ZSCALE x (integer - dither + 0.5), the dither taken from the standard's fixed pseudo-random sequence
// (section 10.2.3), or ZZERO + ZSCALE x integer without dithering; a tile that could not be quantized is stored
// losslessly in GZIP_COMPRESSED_DATA. Checked value for value against cfitsio's own decoding (funpack) of
// files written by astropy and by fpack: test/fixtures/tile-compressed/.
import { decompressSync } from 'fflate';
import { FitsReadError, type FitsFile, type FitsHdu } from './fits-file';
import type { ImageReader, IntegerScaling } from './image-reader';
import { RiceDecodeError, riceDecode } from './rice-decoder';
import type { TileCompression } from './tile-compression';

/**
 * The most pixels a tile-compressed image may claim, and a tile: a few bytes of a hostile file's header could
 * otherwise ask for terabytes. 2^31 pixels is a 46,000-pixel square; 2^26 a tile of 8192 x 8192.
 */
const MAX_COMPRESSED_PIXELS = 2 ** 31;
const MAX_TILE_PIXELS = 2 ** 26;

/** What a quantized integer stands for in SUBTRACTIVE_DITHER_2: an exact zero (ZBLANK, usually -2147483647, NaN). */
const ZERO_VALUE = -2147483646;

interface Column {
  /** Byte offset within a table row. */
  offset: number;
  /** The field's type letter (P and Q are descriptors into the heap) and, for a descriptor, its elements' type. */
  type: string;
  elementType: string;
}

/** Bytes per value of each TFORM type letter (X, bits, is handled apart). */
const TYPE_BYTES: Readonly<Record<string, number>> = { L: 1, B: 1, A: 1, I: 2, J: 4, K: 8, E: 4, D: 8, C: 8, M: 16, P: 8, Q: 16 };

export function compressedImageReader(file: FitsFile, hdu: FitsHdu, compression: TileCompression, scaling: IntegerScaling): ImageReader {
  const damaged = (problem: string): FitsReadError => new FitsReadError(file.fileName, `has a damaged tile-compressed image in HDU ${hdu.index}: ${problem}`);
  const { axes, tile, bitpix } = compression;
  const [width = 1, height = 1, ...rest] = axes;
  const planes = rest.reduce((product, length) => product * length, 1);
  const [tileWidth = 1, tileHeight = 1, ...tileRest] = tile;
  // A tile's pixels beyond its first plane (ZTILE3 and beyond greater than 1) come after it, and are skipped.
  const tileDepth = tileRest.reduce((product, length, axis) => product * Math.min(length, rest[axis]!), 1);
  const tilesAcross = Math.ceil(width / tileWidth);
  if (width * height > MAX_COMPRESSED_PIXELS || tileWidth * tileHeight * tileDepth > MAX_TILE_PIXELS) {
    throw new FitsReadError(
      file.fileName,
      `has a tile-compressed image in HDU ${hdu.index} larger than this reader decodes: ${axes.join(' x ')} pixels in tiles of ${tile.join(' x ')} (at most ${MAX_COMPRESSED_PIXELS.toLocaleString('en-US')} pixels, tiles of ${MAX_TILE_PIXELS.toLocaleString('en-US')})`,
    );
  }
  const columns = tableColumns(hdu, damaged);
  const data = columns.get('COMPRESSED_DATA');
  if (!data || (data.type !== 'P' && data.type !== 'Q')) throw damaged('it has no COMPRESSED_DATA column of variable-length arrays');
  const rowBytes = hdu.axes[0] ?? 0;
  const rows = hdu.axes[1] ?? 0;
  const tilesNeeded = tilesAcross * Math.ceil(height / tileHeight);
  if (rows < tilesNeeded) throw damaged(`its table has ${rows} rows for ${tilesNeeded} tiles`);
  const theap = hdu.values.get('THEAP');
  const heapOffset = hdu.dataOffset + (typeof theap === 'number' ? theap : rowBytes * rows);
  const heapEnd = hdu.dataOffset + hdu.dataBytes;
  const quantized = bitpix < 0 && columns.has('ZSCALE');
  const single = bitpix === 8 || bitpix === 16 || bitpix === -32;
  const scaled = scaling.bscale !== 1 || scaling.bzero !== 0;

  /** The bytes a descriptor in `row` points at, or undefined for an empty array. */
  const heapBytes = (row: Uint8Array, column: Column, tileIndex: number): Uint8Array | undefined => {
    const view = new DataView(row.buffer, row.byteOffset + column.offset);
    const count = column.type === 'P' ? view.getUint32(0) : view.getUint32(0) * 4294967296 + view.getUint32(4);
    const offset = column.type === 'P' ? view.getUint32(4) : view.getUint32(8) * 4294967296 + view.getUint32(12);
    if (count === 0) return undefined;
    const length = count * (TYPE_BYTES[column.elementType] ?? 1);
    if (heapOffset + offset + length > heapEnd) throw damaged(`tile ${tileIndex + 1}'s data lie beyond the end of the heap`);
    return file.read(heapOffset + offset, length);
  };

  /** Tile `index` (0 first), its `count` pixels as physical values in `out`. */
  const decodeTile = (index: number, count: number, out: Float64Array): void => {
    const row = file.read(hdu.dataOffset + index * rowBytes, rowBytes);
    const compressed = heapBytes(row, data, index);
    const zscale = columnNumber(row, columns.get('ZSCALE'));
    const zzero = columnNumber(row, columns.get('ZZERO'));
    const blank = columnNumber(row, columns.get('ZBLANK')) ?? (quantized ? compression.zblank : scaling.blank);
    if (compressed) {
      const integers = bitpix > 0 || quantized;
      if (compression.algorithm === 'NOCOMPRESS') {
        storedValues(compressed, data.elementType === 'B' ? 1 : TYPE_BYTES[data.elementType]!, integers ? 'integer' : 'float', count, out, index, damaged);
      } else if (compression.algorithm.startsWith('RICE')) {
        const ints = new Int32Array(count);
        try {
          riceDecode(compressed, count, compression.blockSize, compression.bytePix, ints);
        } catch (error) {
          if (error instanceof RiceDecodeError) throw damaged(`tile ${index + 1}: ${error.message}`);
          throw error;
        }
        out.set(ints);
      } else {
        const bytes = inflated(compressed, count, index, damaged);
        const size = bytes.length / count;
        if (![1, 2, 4, 8].includes(size)) throw damaged(`tile ${index + 1} holds ${bytes.length} bytes for ${count} pixels`);
        storedValues(compression.algorithm === 'GZIP_2' ? unshuffled(bytes, size) : bytes, size, integers ? 'integer' : 'float', count, out, index, damaged);
      }
      if (quantized) dequantize(out, count, index, zscale ?? 1, zzero ?? 0, blank, compression);
      else if (integers) scale(out, count, scaling.bscale, scaling.bzero, blank);
      else if (scaled) scale(out, count, scaling.bscale, scaling.bzero, undefined);
      return;
    }
    // A tile of floats that could not be quantized is kept whole: gzipped (or, in old files, plain) values.
    const gzipped = columns.has('GZIP_COMPRESSED_DATA') ? heapBytes(row, columns.get('GZIP_COMPRESSED_DATA')!, index) : undefined;
    const plainColumn = columns.get('UNCOMPRESSED_DATA');
    const plain = plainColumn ? heapBytes(row, plainColumn, index) : undefined;
    const bytes = gzipped ? inflated(gzipped, count, index, damaged) : plain;
    if (!bytes) throw damaged(`tile ${index + 1} has no data`);
    const size = bytes.length / count;
    if (![1, 2, 4, 8].includes(size)) throw damaged(`tile ${index + 1} holds ${bytes.length} bytes for ${count} pixels`);
    storedValues(bytes, size, bitpix < 0 ? 'float' : 'integer', count, out, index, damaged);
    if (bitpix > 0) scale(out, count, scaling.bscale, scaling.bzero, scaling.blank);
    else if (scaled) scale(out, count, scaling.bscale, scaling.bzero, undefined);
  };

  const readRows = (first: number, count: number, out: Float32Array | Float64Array): void => {
    const tileValues = new Float64Array(tileWidth * tileHeight * tileDepth);
    const last = first + count; // exclusive
    for (let tileRow = Math.floor(first / tileHeight); tileRow * tileHeight < last; tileRow += 1) {
      const top = tileRow * tileHeight;
      const rowsInTile = Math.min(tileHeight, height - top);
      for (let across = 0; across < tilesAcross; across += 1) {
        const left = across * tileWidth;
        const columnsInTile = Math.min(tileWidth, width - left);
        decodeTile(tileRow * tilesAcross + across, columnsInTile * rowsInTile * tileDepth, tileValues);
        // A single-float image's values are single floats whatever array they go into (cfitsio rounds so).
        if (single) for (let i = 0; i < columnsInTile * rowsInTile; i += 1) tileValues[i] = Math.fround(tileValues[i]!);
        for (let y = Math.max(first, top); y < Math.min(last, top + rowsInTile); y += 1) {
          const from = (y - top) * columnsInTile;
          out.set(tileValues.subarray(from, from + columnsInTile), (y - first) * width + left);
        }
      }
    }
  };

  return { hdu: hdu.index, width, height, bitpix, bscale: scaling.bscale, bzero: scaling.bzero, planes, single, rowsPerTile: tileHeight, readRows };
}

/** The table's columns by TTYPE, each with its byte offset in a row (standard section 7.3). */
function tableColumns(hdu: FitsHdu, damaged: (problem: string) => FitsReadError): Map<string, Column> {
  const fields = hdu.values.get('TFIELDS');
  const columns = new Map<string, Column>();
  let offset = 0;
  for (let field = 1; typeof fields === 'number' && field <= fields; field += 1) {
    const form = hdu.values.get(`TFORM${field}`);
    const match = typeof form === 'string' ? /^\s*(\d*)([LXBIJKAEDCMPQ])([LXBIJKAEDCM])?/.exec(form.toUpperCase()) : null;
    if (!match) throw damaged(`TFORM${field} = ${String(form)} is not a column format`);
    const repeat = match[1] === '' ? 1 : Number(match[1]);
    const type = match[2]!;
    const name = hdu.values.get(`TTYPE${field}`);
    if (typeof name === 'string') columns.set(name.trim().toUpperCase(), { offset, type, elementType: match[3] ?? 'B' });
    offset += type === 'X' ? Math.ceil(repeat / 8) : repeat * TYPE_BYTES[type]!;
  }
  if (offset !== (hdu.axes[0] ?? 0)) throw damaged(`its columns take ${offset} bytes of a ${hdu.axes[0] ?? 0}-byte row`);
  return columns;
}

/** A ZSCALE, ZZERO or ZBLANK field of a row (D, E, J or K), or undefined when the table has no such column. */
function columnNumber(row: Uint8Array, column: Column | undefined): number | undefined {
  if (!column) return undefined;
  const view = new DataView(row.buffer, row.byteOffset + column.offset);
  switch (column.type) {
    case 'D':
      return view.getFloat64(0);
    case 'E':
      return view.getFloat32(0);
    case 'J':
      return view.getInt32(0);
    case 'I':
      return view.getInt16(0);
    case 'K':
      return Number(view.getBigInt64(0));
    default:
      return undefined;
  }
}

/**
 * A gzipped tile of `count` pixels, at most 8 bytes each: inflated into a buffer one byte larger than that, so a
 * tile that inflates further (a gzip bomb) fills it and is refused instead of taking all the memory there is.
 */
function inflated(bytes: Uint8Array, count: number, index: number, damaged: (problem: string) => FitsReadError): Uint8Array {
  let out: Uint8Array;
  try {
    out = decompressSync(bytes, { out: new Uint8Array(count * 8 + 1) });
  } catch {
    throw damaged(`tile ${index + 1}'s gzip data cannot be decompressed`);
  }
  if (out.length > count * 8) throw damaged(`tile ${index + 1} inflates to more than 8 bytes for each of its ${count} pixels`);
  return out;
}

/** GZIP_2's bytes back in order: the first bytes of all values came first, then all the second bytes, and so on. */
function unshuffled(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  for (let byte = 0; byte < size; byte += 1) {
    for (let i = 0; i < count; i += 1) out[i * size + byte] = bytes[byte * count + i]!;
  }
  return out;
}

/** `count` big-endian values of `size` bytes: 1 unsigned, 2, 4 and 8 signed integers, or 4- and 8-byte floats. */
function storedValues(
  bytes: Uint8Array,
  size: number,
  kind: 'integer' | 'float',
  count: number,
  out: Float64Array,
  index: number,
  damaged: (problem: string) => FitsReadError,
): void {
  if (bytes.length < count * size) throw damaged(`tile ${index + 1} holds ${bytes.length} bytes for ${count} pixels`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (kind === 'float' && size !== 4 && size !== 8) throw damaged(`tile ${index + 1} holds ${size}-byte floats`);
  for (let i = 0; i < count; i += 1) {
    const at = i * size;
    if (kind === 'float') out[i] = size === 4 ? view.getFloat32(at) : view.getFloat64(at);
    else if (size === 1) out[i] = view.getUint8(at);
    else if (size === 2) out[i] = view.getInt16(at);
    else if (size === 4) out[i] = view.getInt32(at);
    else out[i] = view.getInt32(at) * 4294967296 + view.getUint32(at + 4);
  }
}

/** Stored integers to physical values; `blank` to NaN. */
function scale(values: Float64Array, count: number, bscale: number, bzero: number, blank: number | undefined): void {
  for (let i = 0; i < count; i += 1) {
    const stored = values[i]!;
    values[i] = stored === blank ? Number.NaN : stored * bscale + bzero;
  }
}

/** How many numbers the standard's dither sequence holds (section 10.2.3). */
const RANDOM_COUNT = 10_000;
let randoms: Float32Array | undefined;

/**
 * The standard's sequence: a Park-Miller generator (a = 16807, m = 2^31 - 1) from seed 1, each number divided
 * by m and kept as a single float, as cfitsio keeps it.
 */
function ditherSequence(): Float32Array {
  if (randoms) return randoms;
  const sequence = new Float32Array(RANDOM_COUNT);
  const a = 16807;
  const m = 2147483647;
  let seed = 1;
  for (let i = 0; i < RANDOM_COUNT; i += 1) {
    const product = a * seed;
    seed = product - m * Math.trunc(product / m);
    sequence[i] = seed / m;
  }
  randoms = sequence;
  return sequence;
}

/**
 * Quantized integers back to floats. The dither of tile `index` (0 first) starts at the sequence's entry
 * (index + ZDITHER0 - 1) mod 10000, read as a place: 500 x that entry (a single float, as cfitsio computes it);
 * each pixel, blank ones too, takes the next entry, and at the sequence's end the start moves on by one.
 */
function dequantize(
  values: Float64Array,
  count: number,
  index: number,
  zscale: number,
  zzero: number,
  blank: number | undefined,
  compression: TileCompression,
): void {
  const method = compression.quantization;
  if (method === 'NO_DITHER') {
    for (let i = 0; i < count; i += 1) {
      const stored = values[i]!;
      values[i] = stored === blank ? Number.NaN : stored * zscale + zzero;
    }
    return;
  }
  const sequence = ditherSequence();
  let seed = (index + compression.dither0 - 1) % RANDOM_COUNT;
  let next = Math.trunc(Math.fround(sequence[seed]! * 500));
  for (let i = 0; i < count; i += 1) {
    const stored = values[i]!;
    if (stored === blank) values[i] = Number.NaN;
    else if (stored === ZERO_VALUE && method === 'SUBTRACTIVE_DITHER_2') values[i] = 0;
    else values[i] = (stored - sequence[next]! + 0.5) * zscale + zzero;
    next += 1;
    if (next === RANDOM_COUNT) {
      seed = (seed + 1) % RANDOM_COUNT;
      next = Math.trunc(Math.fround(sequence[seed]! * 500));
    }
  }
}
