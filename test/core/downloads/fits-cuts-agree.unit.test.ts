// A multi-extension file cut where a header or data unit ends, or inside the padding of a data unit: the streaming
// guard, the check of a file on disk and the FITS reader (`header`, `quicklook`, the app's viewer) all call it
// incomplete, and all call the whole file complete. The reader reads a file cut inside its last padding (its data
// all there), as astropy does, but not as whole: `missingPadding` says what it lacks. The walker and the reader also
// agree on a cut at every byte. (Cuts inside a header or inside data have their own tests too.)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openFitsFile } from '../../../src-main/cli/commands/fits-file-on-disk';
import { UsageError } from '../../../src-main/cli/exit-codes';
import { isCompleteFitsFile } from '../../../src-main/core/downloads/fits-completeness';
import { fitsLayoutGuard } from '../../../src-main/core/downloads/fits-layout-guard';
import { FitsReadError, readFits } from '../../../src-science/fits/fits-file';
import { FitsLayoutError, FitsLayoutWalker } from '../../../src-science/fits/fits-layout';
import { temporaryFolder } from '../../helpers/fixtures';
import { dataUnit, header, multiHduFile, type CardValue } from '../../science/fits/fits-test-files';

const BLOCK = 2880;

async function guardVerdict(bytes: Buffer): Promise<boolean> {
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return pipeline(Readable.from([bytes]), fitsLayoutGuard('cut.fts'), sink).then(
    () => true,
    () => false,
  );
}

let written = 0;
/** The check of a file on disk, and the command line's reader of the same file (`quicklook`): both must agree. */
async function diskVerdict(folder: string, bytes: Buffer): Promise<boolean> {
  const file = path.join(folder, `cut-${(written += 1)}.fts`);
  await writeFile(file, bytes);
  const complete = await isCompleteFitsFile(file);
  let read: boolean;
  try {
    const opened = openFitsFile(file);
    opened.close();
    read = opened.file.missingPadding === 0;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    read = false;
  }
  expect(read, `the reader and the check on disk disagree on ${bytes.length} bytes`).toBe(complete);
  return complete;
}

/** The reader of a file in memory (the app's viewer): read whole, or not (refused, or read short of a block). */
function readerVerdict(bytes: Uint8Array): boolean {
  try {
    return readFits(bytes, 'cut.fts').missingPadding === 0;
  } catch (error) {
    if (error instanceof FitsReadError) return false;
    throw error;
  }
}

/**
 * What downloads must say, from the reader's verdict: the same, but for the one promise only downloads are held to
 * (promised-hdus.ts): an empty primary HDU that announces extensions, alone and without NEXTEND, is valid FITS to
 * the reader (astropy writes such header-only files) and a cut download to the walker.
 */
function downloadVerdictByReader(bytes: Uint8Array): boolean {
  if (!readerVerdict(bytes)) return false;
  const { hdus } = readFits(bytes, 'cut.fts');
  const primary = hdus[0]!;
  return !(hdus.length === 1 && primary.dataBytes === 0 && primary.values.get('EXTEND') === true && !primary.values.has('NEXTEND'));
}

/** The walker that the guard and the check on disk share, given the bytes at once. */
function walkerVerdict(bytes: Uint8Array): boolean {
  const walker = new FitsLayoutWalker();
  try {
    walker.write(bytes);
  } catch (error) {
    if (error instanceof FitsLayoutError) return false;
    throw error;
  }
  return walker.finish().complete;
}

interface Layout {
  bytes: Buffer;
  /** Offsets where an HDU ends with its padding, the last one excepted. */
  boundaries: number[];
  /** Offsets inside the padding of a data unit that is not the last (its data whole, its padding not). */
  inPadding: number[];
}

/** A primary HDU (empty or with `primaryData` bytes) declaring NEXTEND (unless not asked to), then 8-bit image extensions of the sizes given. */
function layoutOf(primaryData: number, extensionData: readonly number[], nextend = true): Layout {
  const image = (first: readonly [string, CardValue], bytes: number): (readonly [string, CardValue])[] =>
    bytes === 0 ? [first, ['BITPIX', 8], ['NAXIS', 0]] : [first, ['BITPIX', 8], ['NAXIS', 1], ['NAXIS1', bytes]];
  const hdus: [Buffer, number][] = [
    [header([...image(['SIMPLE', true], primaryData), ['EXTEND', true], ...(nextend ? [['NEXTEND', extensionData.length] as const] : [])]), primaryData],
    ...extensionData.map((bytes): [Buffer, number] => [header([...image(['XTENSION', 'IMAGE'], bytes), ['PCOUNT', 0], ['GCOUNT', 1]]), bytes]),
  ];
  const parts: Buffer[] = [];
  const boundaries: number[] = [];
  const inPadding: number[] = [];
  let offset = 0;
  hdus.forEach(([head, bytes], index) => {
    parts.push(head, dataUnit(bytes));
    const dataEnd = offset + head.length + bytes;
    offset += head.length + Math.ceil(bytes / BLOCK) * BLOCK;
    if (index === hdus.length - 1) return;
    boundaries.push(offset);
    // Where the data ends, one byte into the padding, and one byte short of its end.
    for (const cut of new Set([dataEnd, dataEnd + 1, offset - 1])) if (cut >= dataEnd && cut < offset) inPadding.push(cut);
  });
  return { bytes: Buffer.concat(parts), boundaries, inPadding };
}

/**
 * Cuts of the file that `parts` (headers and data units, as multiHduFile gives them) make: every `stride`th byte,
 * and every byte within 16 of where a part ends or a data unit's data ends (before its zero padding).
 */
function cutsOf(parts: readonly Buffer[], stride: number): number[] {
  const ends: number[] = [];
  let start = 0;
  parts.forEach((part, index) => {
    if (index > 0 && index % 2 === 0) ends.push(start + part.findLastIndex((byte) => byte !== 0) + 1);
    start += part.length;
    ends.push(start);
  });
  const cuts = new Set<number>();
  for (let cut = 0; cut <= start; cut += stride) cuts.add(cut);
  for (const end of ends) for (let cut = Math.max(0, end - 16); cut <= Math.min(start, end + 16); cut += 1) cuts.add(cut);
  return [...cuts].sort((a, b) => a - b);
}

describe('a multi-extension file cut at an HDU boundary or inside a padding', () => {
  it("the issue's file: five HDUs cut to its empty primary is incomplete for both checks", async () => {
    const folder = await temporaryFolder();
    const { bytes, boundaries } = layoutOf(0, [5000, 5000, 5000, 5000]);
    const primaryOnly = bytes.subarray(0, boundaries[0]);
    expect(primaryOnly.length).toBe(BLOCK);
    expect(await guardVerdict(primaryOnly)).toBe(false);
    expect(await diskVerdict(folder, primaryOnly)).toBe(false);
    expect(readerVerdict(primaryOnly)).toBe(false);
  });

  it("every cut of a UCoMP-like file with NEXTEND (the test files' layout): both checks say incomplete", async () => {
    const folder = await temporaryFolder();
    const { bytes: whole, parts } = multiHduFile({ primaryCards: [['NEXTEND', 3]] });
    const cuts: number[] = [];
    let offset = 0;
    for (const [index, part] of parts.slice(0, -1).entries()) {
      offset += part.length;
      cuts.push(offset);
      if (index % 2 === 0 && index > 0) cuts.push(offset - 1); // inside the padding of data units 1 and 2
    }
    expect(cuts).toHaveLength(8);
    for (const cut of cuts) {
      const bytes = whole.subarray(0, cut);
      expect([cut, await guardVerdict(bytes), await diskVerdict(folder, bytes), readerVerdict(bytes)]).toEqual([cut, false, false, false]);
    }
    expect([await guardVerdict(whole), await diskVerdict(folder, whole), readerVerdict(whole)]).toEqual([true, true, true]);
  });

  it('any layout: both checks call every cut incomplete and the whole file complete', async () => {
    const folder = await temporaryFolder();
    const dataBytes = fc.oneof(fc.constant(0), fc.constant(BLOCK), fc.integer({ min: 1, max: 3 * BLOCK + 7 }));
    await fc.assert(
      fc.asyncProperty(dataBytes, fc.array(dataBytes, { minLength: 1, maxLength: 5 }), async (primaryData, extensionData) => {
        const { bytes, boundaries, inPadding } = layoutOf(primaryData, extensionData);
        for (const cut of [...boundaries, ...inPadding]) {
          const part = bytes.subarray(0, cut);
          expect([cut, await guardVerdict(part), await diskVerdict(folder, part), readerVerdict(part)]).toEqual([cut, false, false, false]);
        }
        expect([await guardVerdict(bytes), await diskVerdict(folder, bytes), readerVerdict(bytes)]).toEqual([true, true, true]);
        const padding = (BLOCK - ((extensionData.at(-1) ?? 0) % BLOCK)) % BLOCK;
        if (padding > 0) {
          const unpadded = bytes.subarray(0, bytes.length - padding);
          expect([await guardVerdict(unpadded), await diskVerdict(folder, unpadded), readerVerdict(unpadded)]).toEqual([false, false, false]);
          expect(readFits(unpadded, 'cut.fts').missingPadding).toBe(padding);
        }
      }),
      { numRuns: 40 },
    );
  });

  // Each verdict reads the headers again (some 60 microseconds a cut): every byte of the 20,000-byte files, and
  // of the one with two-block headers every 7th byte and every byte near where a header, data or padding ends.
  it.each([
    ['with NEXTEND', { primaryCards: [['NEXTEND', 3]] as const }, 1, true],
    ['without NEXTEND, the last padding left out', { unpaddedEnd: true }, 1, false],
    ['without NEXTEND, long headers', { longHeader: true }, 7, true],
  ])(
    '%s: the walker and the reader give the same verdict on a cut at every byte',
    (_name, options, stride, whole) => {
      const { bytes, parts } = multiHduFile(options);
      const disagree: number[] = [];
      for (const cut of cutsOf(parts, stride)) {
        const part = bytes.subarray(0, cut);
        if (walkerVerdict(part) !== downloadVerdictByReader(part)) disagree.push(cut);
      }
      expect(disagree.slice(0, 10)).toEqual([]);
      expect([walkerVerdict(bytes), readerVerdict(bytes)]).toEqual([whole, whole]);
    },
    60_000,
  );

  it('any layout: the walker and the reader agree on a cut at any byte', () => {
    const dataBytes = fc.oneof(fc.constant(0), fc.constant(BLOCK), fc.integer({ min: 1, max: 3 * BLOCK + 7 }));
    const layouts = fc.tuple(dataBytes, fc.array(dataBytes, { minLength: 1, maxLength: 4 }), fc.boolean());
    fc.assert(
      fc.property(layouts, fc.nat(), fc.integer({ min: -10, max: 10 }), ([primaryData, extensionData, nextend], pick, step) => {
        const { bytes, boundaries, inPadding } = layoutOf(primaryData, extensionData, nextend);
        // Near where an HDU ends or inside a padding, where the judgements differ most; or anywhere at all.
        const near = [...boundaries, ...inPadding, pick % (bytes.length + 1)];
        const cut = Math.min(bytes.length, Math.max(0, near[pick % near.length]! + step));
        const part = bytes.subarray(0, cut);
        expect([cut, walkerVerdict(part)]).toEqual([cut, downloadVerdictByReader(part)]);
      }),
      { numRuns: 300 },
    );
  });
});
