// Walks the HDUs of a FITS file as its bytes go by (primary HDU, then every XTENSION HDU) and judges them
// against what the headers declare: whole, cut short, longer than declared, or damaged. One walker serves
// both a download as it streams and a file on disk (which skips the data units instead of reading them).
// Only header bytes are buffered; data units are merely counted.
//
// A file that ends inside the zero padding after a data unit (short of a whole 2,880-byte block) is incomplete.
// How many HDUs a file holds is declared only by the NEXTEND convention (a primary header with EXTEND = T and
// NEXTEND = n promises n extensions): with it, a file cut exactly at an HDU boundary is incomplete too. Without
// NEXTEND, only one such cut is told: an empty primary HDU (no data) that announces extensions and has none after
// it holds nothing at all, and is incomplete; any later HDU boundary looks exactly like the end of a whole file.
// The rule is promised-hdus.ts's, which the FITS reader (fits-file.ts) applies too, so a file the download keeps
// is one the reader reads whole; the reader also reads, as astropy does and saying so, one that ends in its padding.
import {
  EXTENSION_SIGNATURE,
  FITS_BLOCK,
  FitsHeaderError,
  MAX_HEADER_BLOCKS,
  PRIMARY_SIGNATURE,
  dataUnitBytes,
  isEndCard,
  paddedToBlocks,
  parseFitsHeader,
} from './fits-header';
import { keepsPromise, PRIMARY_ONLY, promisedDownloadHdus, type HduPromise } from './promised-hdus';

export type FitsLayoutFault = 'not-fits' | 'corrupt' | 'oversized';

/**
 * The bytes break the FITS layout at `offset`: `not-fits` (no `SIMPLE  =` at the start), `corrupt` (a header
 * without END or with impossible values, at the HDU's start) or `oversized` (bytes after the declared end of
 * the last HDU that do not begin another extension; `offset` is that declared end).
 */
export class FitsLayoutError extends Error {
  constructor(
    readonly fault: FitsLayoutFault,
    readonly offset: number,
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * How the bytes ended. Complete means every HDU holds all its headers declare, in whole 2,880-byte blocks, and as
 * many HDUs arrived as the primary header declares. The final padding of the last data unit is demanded too: the
 * archive serves whole blocks, and fitsverify calls a file without them an error (astropy reads one, with a
 * warning, and so does the FITS reader: fits-file.ts). When the end came inside a data unit, `declared` is the end
 * of that data unit; inside its padding (`inPadding`), the end of its last block. When the HDUs that arrived are
 * whole but too few, `hdus` says how many arrived and `declaredHdus` how many the primary header declares (absent
 * for an empty primary HDU that announces extensions without counting them).
 */
export type FitsEnding =
  { complete: true; bytes: number } | { complete: false; arrived: number; declared?: number; inPadding?: true; hdus?: number; declaredHdus?: number };

const CARD = 80;
const PRIMARY = asciiBytes(PRIMARY_SIGNATURE);
const EXTENSION = asciiBytes(EXTENSION_SIGNATURE);

export class FitsLayoutWalker {
  private position = 0;
  private inData = false;
  private hdus = 0;
  // What the primary header promises: how many HDUs at least, exactly counted when it gives NEXTEND.
  private promise: HduPromise = PRIMARY_ONLY;
  // The header being read: where it starts, its bytes so far, and the signature it must begin with.
  private headerStart = 0;
  private headerFill = 0;
  private header = new Uint8Array(FITS_BLOCK);
  private signature = PRIMARY;
  // The data unit being counted: its end without and with the padding to whole blocks.
  private dataEnd = 0;
  private paddedEnd = 0;
  // Everything before this offset has been handed on; after it, at most the unconfirmed start of a header.
  private released = 0;

  /** Bytes of the current data unit (with its padding) still to come: a reader of a file may skip them. */
  get skippableBytes(): number {
    return this.inData ? this.paddedEnd - this.position : 0;
  }

  /** Moves past `bytes` of data without seeing them (at most `skippableBytes`). */
  skip(bytes: number): void {
    if (bytes > this.skippableBytes) throw new RangeError('cannot skip beyond the current data unit');
    this.position += bytes;
    this.released = this.position;
    if (this.position === this.paddedEnd) this.startHeader();
  }

  /**
   * Takes the next bytes. `pass` receives, in order, exactly the bytes that lie within what the headers
   * declare: slices of `chunk` where it can, never anything past the declared end. Throws FitsLayoutError.
   */
  write(chunk: Uint8Array, pass?: (bytes: Uint8Array) => void): void {
    const chunkStart = this.position;
    let offset = 0;
    try {
      while (offset < chunk.length) {
        if (this.inData) {
          const take = Math.min(chunk.length - offset, this.paddedEnd - this.position);
          offset += take;
          this.position += take;
          if (this.position === this.paddedEnd) this.startHeader();
        } else {
          offset += this.readHeader(chunk, offset, chunkStart, pass);
        }
      }
    } finally {
      // Also when throwing: whatever lay within the declared layout is handed on, nothing after it.
      const end = this.releasableEnd();
      if (pass && end > this.released) {
        const from = this.released - chunkStart;
        const to = end - chunkStart;
        pass(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to));
        this.released = end;
      }
    }
  }

  /** Judges the bytes once no more will come. */
  finish(): FitsEnding {
    if (this.inData && this.position < this.dataEnd) return { complete: false, arrived: this.position, declared: this.dataEnd };
    // Every HDU that began arrived with all its data: were there as many as promised, in whole blocks?
    if (this.inData || (this.headerFill === 0 && this.hdus > 0)) {
      if (!keepsPromise(this.promise, this.hdus)) {
        const extensions = this.promise.extensions;
        const count = extensions === undefined ? {} : { declaredHdus: extensions + 1 };
        return { complete: false, arrived: this.position, hdus: this.hdus, ...count };
      }
      if (this.inData) return { complete: false, arrived: this.position, declared: this.paddedEnd, inPadding: true };
      return { complete: true, bytes: this.position };
    }
    return { complete: false, arrived: this.position };
  }

  /** Copies header bytes up to the end of the current block; returns how many were taken. */
  private readHeader(chunk: Uint8Array, offset: number, chunkStart: number, pass?: (bytes: Uint8Array) => void): number {
    const fill = this.headerFill;
    if (fill < this.signature.length) {
      const checked = Math.min(this.signature.length - fill, chunk.length - offset);
      for (let i = 0; i < checked; i += 1) {
        if (chunk[offset + i] !== this.signature[fill + i]) throw this.strayBytes();
      }
      // The signature is confirmed now: hand on its first bytes, held back from earlier chunks until this moment.
      if (fill + checked === this.signature.length && this.released < chunkStart && pass) {
        pass(this.header.slice(this.released - this.headerStart, chunkStart - this.headerStart));
        this.released = chunkStart;
      }
    }
    const taken = Math.min(FITS_BLOCK - (fill % FITS_BLOCK), chunk.length - offset);
    if (fill + taken > this.header.length) this.growHeader();
    this.header.set(chunk.subarray(offset, offset + taken), fill);
    this.headerFill += taken;
    this.position += taken;
    if (this.headerFill % FITS_BLOCK === 0) this.blockRead();
    return taken;
  }

  /** A header block is complete: if it holds END, the data unit begins; else the header goes on (within reason). */
  private blockRead(): void {
    const blockStart = this.headerFill - FITS_BLOCK;
    let ended = false;
    for (let card = blockStart; card < this.headerFill && !ended; card += CARD) ended = isEndCard(this.header, card);
    if (!ended) {
      if (this.headerFill >= MAX_HEADER_BLOCKS * FITS_BLOCK) throw this.corrupt(`no END card in its first ${MAX_HEADER_BLOCKS} blocks`);
      return;
    }
    const parsed = parseFitsHeader(this.header.subarray(0, this.headerFill));
    let data: number;
    try {
      if (!parsed) throw new FitsHeaderError('no END card');
      data = dataUnitBytes(parsed);
      if (this.hdus === 0) this.promise = promisedDownloadHdus(parsed.cards, data);
    } catch (error) {
      if (error instanceof FitsHeaderError) throw this.corrupt(error.message);
      throw error;
    }
    this.hdus += 1;
    this.dataEnd = this.position + data;
    this.paddedEnd = this.position + paddedToBlocks(data);
    if (data === 0) this.startHeader();
    else this.inData = true;
  }

  private startHeader(): void {
    this.inData = false;
    this.headerStart = this.position;
    this.headerFill = 0;
    this.signature = this.hdus === 0 ? PRIMARY : EXTENSION;
  }

  /** Held back: the start of a header whose signature has not been confirmed yet. */
  private releasableEnd(): number {
    return !this.inData && this.headerFill < this.signature.length ? this.headerStart : this.position;
  }

  private growHeader(): void {
    const larger = new Uint8Array(Math.min(this.header.length * 2, MAX_HEADER_BLOCKS * FITS_BLOCK));
    larger.set(this.header.subarray(0, this.headerFill));
    this.header = larger;
  }

  private strayBytes(): FitsLayoutError {
    if (this.hdus === 0) return new FitsLayoutError('not-fits', 0, `it does not begin with "${PRIMARY_SIGNATURE}"`);
    return new FitsLayoutError('oversized', this.headerStart, `bytes follow the declared end (${this.headerStart} bytes) and do not begin an extension`);
  }

  // HDUs count from 0, the primary, as the FITS reader, the quick-look and astropy count them.
  private corrupt(detail: string): FitsLayoutError {
    return new FitsLayoutError('corrupt', this.headerStart, `the FITS header of HDU ${this.hdus} has ${detail}`);
  }
}

function asciiBytes(text: string): Uint8Array {
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}
