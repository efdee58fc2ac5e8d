// Property tests of the gzip detector: whatever bytes a body begins with, however they are split into pieces,
// undoing gzip layers gives back the bytes (when they are no gzip), the payload (when they are up to three layers of
// it), or a zlib error the download classifies (when a layer is damaged or cut short); never another failure, never a
// hang.
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutGzipLayers } from '../../src-main/core/downloads/gzip-layers';

const RUNS = { numRuns: 200 };

/** `bytes` as a stream of pieces cut at the given sizes (the last piece takes the rest). */
function piecewise(bytes: Buffer, cuts: readonly number[]): Readable {
  const pieces: Buffer[] = [];
  let offset = 0;
  for (const cut of cuts) {
    if (offset >= bytes.length) break;
    pieces.push(bytes.subarray(offset, offset + cut));
    offset += cut;
  }
  if (offset < bytes.length) pieces.push(bytes.subarray(offset));
  return Readable.from(pieces, { objectMode: false });
}

type Outcome = { output: Buffer } | { error: NodeJS.ErrnoException };

async function undo(bytes: Buffer, cuts: readonly number[]): Promise<Outcome> {
  try {
    const stream = await withoutGzipLayers(piecewise(bytes, cuts));
    const chunks: Buffer[] = [];
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return { output: Buffer.concat(chunks) };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
}

/** The failures of a damaged or short gzip layer, which the download turns into "corrupt" or "truncated". */
function expectZlibFailure(outcome: Outcome): void {
  expect('error' in outcome, 'expected a failure').toBe(true);
  if (!('error' in outcome)) return;
  const { error } = outcome;
  expect(
    error.code === 'Z_DATA_ERROR' || error.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(error.message),
    `${error.code}: ${error.message}`,
  ).toBe(true);
}

/** The test's own reading of the magic (not the code's, which is what is under test). */
const isGzip = (bytes: Buffer): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

const cuts = fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 12 });
// Bodies that begin with half of the magic (0x1f alone) are the ones a careless check takes for gzip.
const payload = fc
  .oneof(
    fc.uint8Array({ maxLength: 2048 }),
    fc.uint8Array({ maxLength: 64 }).map((bytes) => Uint8Array.of(0x1f, ...bytes)),
  )
  .map((bytes) => Buffer.from(bytes));

describe('undoing gzip layers of any body', () => {
  it('gives back any body that does not begin with the gzip magic, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(payload, cuts, async (bytes, pieces) => {
        fc.pre(!isGzip(bytes));
        expect(await undo(bytes, pieces)).toEqual({ output: bytes });
      }),
      RUNS,
    );
  });

  it('gives back the payload of up to three layers, however the pieces fall', async () => {
    await fc.assert(
      fc.asyncProperty(payload, fc.integer({ min: 1, max: 3 }), cuts, async (inner, layers, pieces) => {
        fc.pre(!isGzip(inner));
        let body = inner;
        for (let layer = 0; layer < layers; layer += 1) body = gzipSync(body);
        expect(await undo(body, pieces)).toEqual({ output: inner });
      }),
      RUNS,
    );
  });

  it('fails with a zlib error for a gzip layer cut short anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(payload, fc.integer({ min: 1, max: 2 }), fc.nat(), cuts, async (inner, layers, at, pieces) => {
        let body = inner;
        for (let layer = 0; layer < layers; layer += 1) body = gzipSync(body);
        // At least the magic stays, and at least one byte of the trailer goes.
        const cut = 2 + (at % (body.length - 2));
        expectZlibFailure(await undo(body.subarray(0, cut), pieces));
      }),
      RUNS,
    );
  });

  it('gives back bytes or fails with a zlib error for anything after the gzip magic', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 512 }), cuts, async (rest, pieces) => {
        const outcome = await undo(Buffer.concat([Buffer.from([0x1f, 0x8b]), rest]), pieces);
        if ('error' in outcome) expectZlibFailure(outcome);
        else expect(Buffer.isBuffer(outcome.output)).toBe(true);
      }),
      RUNS,
    );
  });

  it('gives back a damaged payload, or fails with a zlib error, when bytes of a layer are flipped', async () => {
    await fc.assert(
      fc.asyncProperty(payload, fc.nat(), fc.integer({ min: 1, max: 255 }), cuts, async (inner, at, flip, pieces) => {
        const body = Buffer.from(gzipSync(inner));
        // The magic itself stays: a body whose magic is damaged is simply not gzip.
        const index = 2 + (at % (body.length - 2));
        body[index] = body[index]! ^ flip;
        const outcome = await undo(body, pieces);
        if ('error' in outcome) expectZlibFailure(outcome);
      }),
      RUNS,
    );
  });
});
