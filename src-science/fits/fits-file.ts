// A FITS file split into its HDUs: the primary HDU, then every extension. Each HDU's header is read (cards,
// values) and its data unit located, never copied. The file is in memory (`readFits`) or read piece by piece
// from anywhere else (`readFitsFrom`: the command line reads a file on disk so, and never holds all of it). A
// file that is not FITS, is cut short or has a header no data unit can follow is refused with a FitsReadError
// that names the file and the problem. Cut short includes fewer HDUs than the primary header promises (its
// NEXTEND, or an empty primary HDU announcing extensions): the rule of promised-hdus.ts, the one by which
// downloads and files on disk are judged complete. A file that ends inside the zero padding after its last data
// unit holds all its data: it is read, as astropy reads it, and `missingPadding` says it is not whole (downloads
// refuse it). HDUs count from 0, the primary HDU, as astropy and ds9's `file.fts[1]` count them.
import { type FitsCard, type FitsValue } from './fits-cards';
import {
  EXTENSION_SIGNATURE,
  FITS_BLOCK,
  FitsHeaderError,
  MAX_HEADER_BLOCKS,
  PRIMARY_SIGNATURE,
  dataUnitBytes,
  paddedToBlocks,
  parseFitsHeader,
} from './fits-header';
import { declaredHdus, keepsPromise, PRIMARY_ONLY, type HduPromise } from './promised-hdus';
import { isDecodableImage, tileCompressionOf, type TileCompression } from './tile-compression';

/** The file cannot be read as FITS; the message is one sentence: the file's name, then what is wrong. */
export class FitsReadError extends Error {
  constructor(
    readonly fileName: string,
    /** What is wrong, e.g. "ends after 4,096 of 8,640 bytes of HDU 1's data". */
    readonly problem: string,
    /**
     * The HDUs whose headers arrived whole before the problem (an HDU whose data was cut among them): what
     * `header` still shows of a damaged file. Empty when the problem is not in the file's HDUs.
     */
    readonly hdus: readonly FitsHdu[] = [],
  ) {
    super(`${fileName} ${problem}.`);
    this.name = 'FitsReadError';
  }
}

export interface FitsHdu {
  index: number;
  /** `primary`, or the extension's XTENSION value: `IMAGE`, `BINTABLE`, `TABLE`, ... */
  type: string;
  /**
   * An image with pixels the reader decodes: the primary HDU or an IMAGE extension (not random groups), every axis
   * longer than 0; or a tile-compressed image in an algorithm it decodes (see `compression`).
   */
  isImage: boolean;
  /** A BINTABLE with ZIMAGE = T: the tile-compressed image it holds (its own BITPIX and axes are there). */
  compression?: TileCompression;
  /** EXTNAME, when the header gives one. */
  name?: string;
  cards: FitsCard[];
  /** The value of each keyword (its first card). */
  values: Map<string, FitsValue>;
  bitpix: number;
  /** NAXIS1, NAXIS2, ... */
  axes: number[];
  headerOffset: number;
  dataOffset: number;
  /** Bytes of the data unit, without its padding. */
  dataBytes: number;
}

export interface FitsFile {
  fileName: string;
  /** Bytes in the whole file. */
  size: number;
  /**
   * Bytes of its last block's zero padding that the file lacks: 0 for a file of whole 2,880-byte blocks. A file that
   * ends inside the padding after its last data unit is read as astropy reads it (the data are all there), but is
   * not whole: `shortBlockWarning` says so.
   */
  missingPadding: number;
  /** `length` bytes from `offset` (within the file): a view of them when the file is in memory. */
  read: FitsRead;
  hdus: FitsHdu[];
}

/** Where a file's bytes come from when it is not in memory: its size and a way to read a piece of it. */
export interface FitsSource {
  size: number;
  read: FitsRead;
}

/**
 * Reads `length` bytes from `offset`. A `passing` read's bytes are used at once and dropped: a source reading from
 * disk reads them into one buffer it reuses, which the next passing read overwrites.
 */
export type FitsRead = (offset: number, length: number, passing?: 'passing') => Uint8Array;

const PRIMARY = asciiBytes(PRIMARY_SIGNATURE);
const EXTENSION = asciiBytes(EXTENSION_SIGNATURE);

/** Splits `bytes` into HDUs. The final padding of the last data unit is not demanded (see `missingPadding`). */
export function readFits(bytes: Uint8Array, fileName: string): FitsFile {
  return readFitsFrom({ size: bytes.length, read: (offset, length) => bytes.subarray(offset, offset + length) }, fileName);
}

/** Splits the file that `source` reads into HDUs, reading their headers only. */
export function readFitsFrom(source: FitsSource, fileName: string): FitsFile {
  const { size, read } = source;
  if (size === 0) throw new FitsReadError(fileName, 'is empty, not a FITS file');
  if (!startsWith(read(0, Math.min(PRIMARY.length, size)), 0, PRIMARY))
    throw new FitsReadError(fileName, `is not a FITS file: it does not start with "${PRIMARY_SIGNATURE}"`);
  const hdus: FitsHdu[] = [];
  let offset = 0;
  try {
    let promise = PRIMARY_ONLY;
    // Bytes after the last HDU that do not begin an extension are ignored, as astropy and ds9 do.
    while (offset < size && (hdus.length === 0 || beginsExtension(source, offset))) {
      const hdu = readHdu(source, offset, hdus.length, fileName);
      hdus.push(hdu);
      const arrived = size - hdu.dataOffset;
      if (arrived < hdu.dataBytes) {
        throw new FitsReadError(fileName, `ends after ${grouped(arrived)} of ${grouped(hdu.dataBytes)} bytes of HDU ${hdu.index}'s data`);
      }
      if (hdu.index === 0) promise = promiseOf(hdu, fileName);
      offset = hdu.dataOffset + paddedToBlocks(hdu.dataBytes);
    }
    // Every HDU that began is whole (the last perhaps without its padding): are they as many as promised?
    if (!keepsPromise(promise, hdus.length)) throw new FitsReadError(fileName, brokenPromise(promise, hdus.length));
  } catch (error) {
    if (error instanceof FitsReadError && error.hdus.length < hdus.length) throw new FitsReadError(fileName, error.problem, hdus);
    throw error;
  }
  return { fileName, size, missingPadding: Math.max(0, offset - size), read, hdus };
}

/**
 * The one line that says a file ends inside the padding of its last data unit, short of a whole 2,880-byte block,
 * and is read anyway (as astropy reads it, with a warning; fitsverify calls it an error); undefined for a whole file.
 */
export function shortBlockWarning(file: FitsFile): string | undefined {
  if (file.missingPadding === 0) return undefined;
  const into = FITS_BLOCK - file.missingPadding;
  return `${file.fileName} ends ${grouped(into)} bytes into its last ${grouped(FITS_BLOCK)}-byte block, ${grouped(file.missingPadding)} bytes short of it (FITS pads every HDU to whole blocks); read as astropy reads it.`;
}

/**
 * Whether an extension begins at `offset`. Bytes at the very end that are the start of its signature are a
 * header cut short (as a download judges them), not bytes after the file.
 */
function beginsExtension(source: FitsSource, offset: number): boolean {
  const length = Math.min(EXTENSION.length, source.size - offset);
  return startsWith(source.read(offset, length), 0, EXTENSION.subarray(0, length));
}

function promiseOf(primary: FitsHdu, fileName: string): HduPromise {
  try {
    return declaredHdus(primary.values);
  } catch (error) {
    if (error instanceof FitsHeaderError) throw new FitsReadError(fileName, `has a damaged header in HDU 0: ${error.message}`);
    throw error;
  }
}

/** "ends after HDU 1: its primary header declares 4 extensions (NEXTEND = 4)". */
function brokenPromise(promise: HduPromise, hdus: number): string {
  const count = promise.extensions ?? promise.required - 1;
  return `ends after HDU ${hdus - 1}: its primary header declares ${count} extension${count === 1 ? '' : 's'} (NEXTEND = ${count})`;
}

/**
 * The header that begins at `headerOffset`: one block read first, then twice as many each time no END card has
 * come (a header is nearly always one or two blocks; a file of 100,000 HDUs is not read whole for them).
 */
function headerAt(source: FitsSource, headerOffset: number): { header: ReturnType<typeof parseFitsHeader>; searched: number } {
  const most = Math.min(source.size - headerOffset, MAX_HEADER_BLOCKS * FITS_BLOCK);
  for (let blocks = 1; ; blocks *= 2) {
    const length = Math.min(most, blocks * FITS_BLOCK);
    const header = parseFitsHeader(source.read(headerOffset, length));
    if (header || length === most) return { header, searched: length };
  }
}

function readHdu(source: FitsSource, headerOffset: number, index: number, fileName: string): FitsHdu {
  const { header, searched } = headerAt(source, headerOffset);
  if (!header) {
    if (searched === MAX_HEADER_BLOCKS * FITS_BLOCK) {
      throw new FitsReadError(fileName, `has a damaged header in HDU ${index}: no END card in its first ${MAX_HEADER_BLOCKS} blocks`);
    }
    throw new FitsReadError(fileName, `ends after ${grouped(searched)} bytes of HDU ${index}'s header, before its END card`);
  }
  let dataBytes: number;
  try {
    dataBytes = dataUnitBytes(header);
  } catch (error) {
    if (error instanceof FitsHeaderError) throw new FitsReadError(fileName, `has a damaged header in HDU ${index}: ${error.message}`);
    throw error;
  }
  const dataOffset = headerOffset + header.headerBytes;
  if (dataOffset > source.size) {
    throw new FitsReadError(fileName, `ends after ${grouped(source.size - headerOffset)} of ${grouped(header.headerBytes)} bytes of HDU ${index}'s header`);
  }
  const values = header.cards;
  const type = index === 0 ? 'primary' : String(values.get('XTENSION') ?? '').trim();
  const axes = axisLengths(values);
  const randomGroups = index === 0 && values.get('GROUPS') === true && axes[0] === 0;
  const compression = tileCompressionOf(type, values);
  const plainImage = (type === 'primary' || type === 'IMAGE') && !randomGroups && axes.length > 0 && axes.every((length) => length > 0);
  const isImage = plainImage || (compression !== undefined && isDecodableImage(compression));
  const name = values.get('EXTNAME');
  return {
    index,
    type,
    isImage,
    ...(compression ? { compression } : {}),
    ...(typeof name === 'string' && name !== '' ? { name } : {}),
    cards: header.cardList,
    values,
    bitpix: values.get('BITPIX') as number,
    axes,
    headerOffset,
    dataOffset,
    dataBytes,
  };
}

/** NAXIS1..NAXISn, already checked by dataUnitBytes to be whole numbers. */
function axisLengths(values: Map<string, FitsValue>): number[] {
  const count = values.get('NAXIS') as number;
  return Array.from({ length: count }, (_, axis) => values.get(`NAXIS${axis + 1}`) as number);
}

/** The first HDU that holds an image: what a quick look shows unless told otherwise. */
export function firstImageHdu(file: FitsFile): FitsHdu | undefined {
  return file.hdus.find((hdu) => hdu.isImage);
}

/** The error for asking after an HDU the file does not have. */
export function missingHdu(file: FitsFile, index: number): FitsReadError {
  const range = file.hdus.length === 1 ? 'it has only HDU 0' : `its HDUs are 0 to ${file.hdus.length - 1}`;
  return new FitsReadError(file.fileName, `has no HDU ${index}: ${range}`);
}

/** How an HDU is described to a person: "HDU 0 (primary)", "HDU 2 (IMAGE, EXTNAME 'I')". */
export function describeHdu(hdu: FitsHdu): string {
  return `HDU ${hdu.index} (${hdu.type}${hdu.name ? `, EXTNAME '${hdu.name}'` : ''})`;
}

/** 8640 -> "8,640": byte counts in messages, readable at a glance. */
export function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function startsWith(bytes: Uint8Array, offset: number, prefix: Uint8Array): boolean {
  if (offset + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i += 1) {
    if (bytes[offset + i] !== prefix[i]) return false;
  }
  return true;
}

function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}
