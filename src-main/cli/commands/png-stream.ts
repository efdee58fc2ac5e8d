// An 8-bit grey PNG (the PNG specification, ISO/IEC 15948) built a band of rows at a time: each row goes through
// zlib as it comes (fflate's streaming deflate, at the level fast-png uses) and only the compressed bytes are
// kept, so a quick look at full size holds its PNG, not also its grey levels and a filtered copy of them.
import { crc32 } from 'node:zlib';
import { Zlib } from 'fflate';

const SIGNATURE = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** fast-png's level: quick, and a few per cent larger than the slowest. */
const LEVEL = 3;

export class GreyPngStream {
  private readonly parts: Uint8Array[] = [SIGNATURE];
  private readonly deflate: Zlib;
  private rowsAdded = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const header = new Uint8Array(13);
    const view = new DataView(header.buffer);
    view.setUint32(0, width);
    view.setUint32(4, height);
    header.set([8, 0, 0, 0, 0], 8); // 8 bits a sample, greyscale, deflate, adaptive filtering, not interlaced
    this.parts.push(chunk('IHDR', header));
    this.deflate = new Zlib({ level: LEVEL }, (data) => {
      if (data.length > 0) this.parts.push(chunk('IDAT', data));
    });
  }

  /** The next `rows` rows, top first, from `grey` (`width` levels a row). */
  addRows(grey: Uint8Array, rows: number): void {
    const { width } = this;
    // Each row is preceded by its filter type: 0, none (as fast-png writes them).
    const filtered = new Uint8Array(rows * (width + 1));
    for (let row = 0; row < rows; row += 1) filtered.set(grey.subarray(row * width, (row + 1) * width), row * (width + 1) + 1);
    this.deflate.push(filtered, false);
    this.rowsAdded += rows;
  }

  /** The whole PNG, once every row has been added. */
  finish(): Uint8Array {
    if (this.rowsAdded !== this.height) throw new RangeError(`${this.rowsAdded} of ${this.height} rows were added`);
    this.deflate.push(new Uint8Array(0), true);
    this.parts.push(chunk('IEND', new Uint8Array(0)));
    const png = new Uint8Array(this.parts.reduce((total, part) => total + part.length, 0));
    let at = 0;
    for (const part of this.parts) {
      png.set(part, at);
      at += part.length;
    }
    return png;
  }
}

/** A chunk: its data's length, its type, the data, and the CRC-32 of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}
