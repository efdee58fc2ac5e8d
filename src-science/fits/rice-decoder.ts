// Rice decoding of one tile of a RICE_1 tile-compressed image (FITS standard 4.0, section 10.4.1; the coder is
// Richard White's, as cfitsio implements it). The tile is a run of integers coded as differences from the
// previous one: the first value raw (BYTEPIX bytes, big-endian), then blocks of BLOCKSIZE differences, each
// block a few bits that say how it is coded: all zero; raw (every difference in 8 x BYTEPIX bits); or Rice
// codes with k low bits (a unary count of the high part, a 1 bit, then the k low bits). Differences are mapped
// to unsigned (0, -1, 1, -2 ... as 0, 1, 2, 3 ...) before coding, and values wrap at 8 x BYTEPIX bits.
// No maintained JavaScript decoder exists; this one is checked value for value against cfitsio's output.

/** The tile's bytes end before `count` values are decoded, or its codes are impossible. */
export class RiceDecodeError extends Error {}

/** For each BYTEPIX: the bits of a block's code, and the code (k + 1) that says the block is stored raw. */
const BLOCK_CODES: Readonly<Record<number, readonly [bits: number, raw: number]>> = { 1: [3, 7], 2: [4, 15], 4: [5, 26] };

/** Bits needed to write each byte value: 0 for 0, 1 for 1, 2 for 2 and 3, ... 8 for 128 to 255. */
const SIGNIFICANT_BITS = Uint8Array.from({ length: 256 }, (_, value) => 32 - Math.clz32(value));

/**
 * Decodes `count` values into `out` (which must hold that many). `bytePix` 1 gives unsigned bytes, 2 signed
 * 16-bit and 4 signed 32-bit values, as cfitsio gives them for 8-bit, 16-bit and 32-bit (or quantized) tiles.
 */
export function riceDecode(input: Uint8Array, count: number, blockSize: number, bytePix: number, out: Int32Array): void {
  const codes = BLOCK_CODES[bytePix];
  if (codes === undefined) throw new RiceDecodeError(`BYTEPIX ${bytePix} is not 1, 2 or 4`);
  const [codeBits, rawCode] = [codes[0], codes[1] - 1];
  if (!(Number.isInteger(blockSize) && blockSize > 0)) throw new RiceDecodeError(`BLOCKSIZE ${blockSize} is not a positive whole number`);
  if (count === 0) return;
  const valueBits = bytePix * 8;
  const wrap = bytePix === 1 ? (value: number) => value & 0xff : bytePix === 2 ? (value: number) => (value << 16) >> 16 : (value: number) => value | 0;
  if (input.length < bytePix + 1) throw new RiceDecodeError('the tile is shorter than its first value');
  let last = 0;
  for (let i = 0; i < bytePix; i += 1) last = (last << 8) | input[i]!;
  last = wrap(last);
  let at = bytePix;
  // The bit buffer: `bits` bits not yet used, in the low end of `buffer`.
  let buffer = input[at++]!;
  let bits = 8;
  const nextByte = (): number => {
    if (at >= input.length) throw new RiceDecodeError('the tile ends before its last value');
    return input[at++]!;
  };
  for (let i = 0; i < count;) {
    bits -= codeBits;
    while (bits < 0) {
      buffer = (buffer << 8) | nextByte();
      bits += 8;
    }
    const k = (buffer >>> bits) - 1;
    buffer &= (1 << bits) - 1;
    const end = Math.min(count, i + blockSize);
    if (k < 0) {
      for (; i < end; i += 1) out[i] = last;
    } else if (k === rawCode) {
      for (; i < end; i += 1) {
        // `valueBits` bits: those left in the buffer, whole bytes, then the top of one more byte.
        let shift = valueBits - bits;
        let mapped = shift >= 32 ? 0 : (buffer << shift) >>> 0;
        for (shift -= 8; shift >= 0; shift -= 8) mapped = (mapped | (nextByte() << shift)) >>> 0;
        if (bits > 0) {
          buffer = nextByte();
          mapped = (mapped | (buffer >>> -shift)) >>> 0;
          buffer &= (1 << bits) - 1;
        } else {
          buffer = 0;
        }
        last = wrap(last + unmapped(mapped));
        out[i] = last;
      }
    } else {
      if (k > rawCode) throw new RiceDecodeError(`a block code of ${k} low bits is impossible for BYTEPIX ${bytePix}`);
      for (; i < end; i += 1) {
        // The unary part: zero bits up to the next 1 bit.
        while (buffer === 0) {
          bits += 8;
          buffer = nextByte();
        }
        const zeros = bits - SIGNIFICANT_BITS[buffer]!;
        bits -= zeros + 1;
        buffer ^= 1 << bits;
        // Then k low bits.
        bits -= k;
        while (bits < 0) {
          buffer = (buffer << 8) | nextByte();
          bits += 8;
        }
        const mapped = ((zeros << k) | (buffer >>> bits)) >>> 0;
        buffer &= (1 << bits) - 1;
        last = wrap(last + unmapped(mapped));
        out[i] = last;
      }
    }
  }
}

/** 0, 1, 2, 3, 4 ... back to 0, -1, 1, -2, 2 ... */
function unmapped(mapped: number): number {
  return mapped & 1 ? ~(mapped >>> 1) : mapped >>> 1;
}
