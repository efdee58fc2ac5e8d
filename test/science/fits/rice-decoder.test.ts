// The Rice decoder against an encoder written here from the standard's description (section 10.4.1), for any
// values and any valid choice of block coding: all-zero blocks, raw blocks, and Rice codes of every width, not
// only the widths cfitsio happens to choose (the fixtures check those: tile-compressed.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RiceDecodeError, riceDecode } from '../../../src-science/fits/rice-decoder';

const CODES: Record<number, { bits: number; raw: number }> = { 1: { bits: 3, raw: 7 }, 2: { bits: 4, raw: 15 }, 4: { bits: 5, raw: 26 } };

class BitWriter {
  readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  write(value: number, bits: number): void {
    for (let bit = bits - 1; bit >= 0; bit -= 1) this.bit(Math.floor(value / 2 ** bit) % 2);
  }

  bit(one: number): void {
    this.current = (this.current << 1) | one;
    this.used += 1;
    if (this.used === 8) this.flushByte();
  }

  finish(): Uint8Array {
    while (this.used !== 0) this.bit(0);
    return Uint8Array.from(this.bytes);
  }

  private flushByte(): void {
    this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
  }
}

/** Wraps to the value the decoder gives for BYTEPIX `bytePix`: unsigned bytes, signed 16- and 32-bit integers. */
function wrapped(value: number, bytePix: number): number {
  if (bytePix === 1) return value & 0xff;
  if (bytePix === 2) return (value << 16) >> 16;
  return value | 0;
}

/**
 * Rice-codes `values` with BLOCKSIZE `blockSize`; `choices` says how each block is coded: 'raw', or a number
 * from 0 to 1 picking the width k among those whose unary parts stay short.
 */
function riceEncode(values: readonly number[], blockSize: number, bytePix: number, choices: readonly ('raw' | number)[]): Uint8Array {
  const { bits: codeBits, raw } = CODES[bytePix]!;
  const valueBits = bytePix * 8;
  const out = new BitWriter();
  // The first value as it is, unsigned in BYTEPIX bytes.
  out.write(bytePix === 4 ? values[0]! >>> 0 : values[0]! & (bytePix === 1 ? 0xff : 0xffff), valueBits);
  let last = values[0]!;
  for (let start = 0, block = 0; start < values.length; start += blockSize, block += 1) {
    const mapped = values.slice(start, start + blockSize).map((value) => {
      const difference = wrapped(value - last, bytePix);
      last = value;
      // Differences of bytes are taken modulo 256 and read as signed, as the decoder adds them back modulo 256.
      const signed = bytePix === 1 ? (difference << 24) >> 24 : difference;
      return signed < 0 ? -2 * signed - 1 : 2 * signed;
    });
    const choice = choices[block % choices.length]!;
    if (mapped.every((value) => value === 0) && choice !== 'raw' && choice < 0.2) {
      out.write(0, codeBits);
    } else if (choice === 'raw') {
      out.write(raw, codeBits);
      for (const value of mapped) out.write(value, valueBits);
    } else {
      const widest = mapped.reduce((most, value) => Math.max(most, value === 0 ? 0 : Math.floor(Math.log2(value)) + 1), 0);
      const least = Math.max(0, widest - 10);
      const k = Math.min(raw - 2, least + Math.floor(choice * (raw - 1 - least)));
      out.write(k + 1, codeBits);
      for (const value of mapped) {
        const high = Math.floor(value / 2 ** k);
        for (let zero = 0; zero < high; zero += 1) out.bit(0);
        out.bit(1);
        out.write(value % 2 ** k, k);
      }
    }
  }
  return out.finish();
}

describe('Rice decoding', () => {
  it.each([1, 2, 4])('BYTEPIX %i: any values, any block size, any valid coding of each block, decode to themselves', (bytePix) => {
    const range = bytePix === 1 ? { min: 0, max: 255 } : bytePix === 2 ? { min: -32768, max: 32767 } : { min: -2147483648, max: 2147483647 };
    const value = fc.oneof(
      fc.integer(range),
      fc.integer({ min: -3, max: 3 }).map((small) => (bytePix === 1 ? small & 0xff : small)),
      fc.constant(bytePix === 1 ? 7 : 0),
    );
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.oneof(fc.constant('raw' as const), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 8 }),
        (values, blockSize, choices) => {
          const encoded = riceEncode(values, blockSize, bytePix, choices);
          const out = new Int32Array(values.length);
          riceDecode(encoded, values.length, blockSize, bytePix, out);
          expect(Array.from(out)).toEqual(values.map((each) => wrapped(each, bytePix)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a tile cut short, and codes no BYTEPIX allows, are errors, not garbage', () => {
    const values = Array.from({ length: 100 }, (_, i) => (i * 7919) % 1000);
    const encoded = riceEncode(values, 32, 4, [0.5]);
    expect(() => riceDecode(encoded.subarray(0, encoded.length - 8), 100, 32, 4, new Int32Array(100))).toThrow(RiceDecodeError);
    expect(() => riceDecode(encoded, 100, 32, 3, new Int32Array(100))).toThrow('BYTEPIX 3 is not 1, 2 or 4');
    // First value, then the code 31 in 5 bits: k = 30, beyond 32-bit Rice codes.
    expect(() => riceDecode(Uint8Array.from([0, 0, 0, 0, 0b11111000, 0, 0, 0]), 4, 32, 4, new Int32Array(4))).toThrow(RiceDecodeError);
  });
});
