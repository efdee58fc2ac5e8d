// Property tests of the streaming file listing parser against what a hostile or broken server may send: any JSON
// value, any listing with a field of the wrong type, cut short anywhere, random bytes, NUL bytes and unexpected fields;
// fed in pieces of any size. It answers exactly as checking the whole text at once would (the same listing, or the
// same InvalidResponseError), and never fails any other way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileListingParser } from '../../src-main/core/api/file-listing-parser';
import { checkShape, parseJsonAnswer } from '../../src-main/core/api/json-answer';
import { InvalidResponseError } from '../../src-main/core/errors';
import { fileEntrySchema, fileListingSchema } from '../../src-shared/api/schemas';

const URL_OF_ANSWER = 'http://127.0.0.1:5000/v1/instruments/kcor/products/pb/files/';
const RUNS = { numRuns: 300 };

type Outcome = { listing: unknown } | { error: unknown };

function streamed(bytes: Buffer, cuts: readonly number[]): Outcome {
  const parser = new FileListingParser(URL_OF_ANSWER);
  try {
    let offset = 0;
    for (let index = 0; offset < bytes.length; index += 1) {
      const size = cuts.length > 0 ? cuts[index % cuts.length]! : bytes.length;
      parser.write(bytes.subarray(offset, offset + size));
      offset += size;
    }
    return { listing: parser.end() };
  } catch (error) {
    return { error };
  }
}

function whole(text: string): Outcome {
  try {
    return { listing: parseJsonAnswer(URL_OF_ANSWER, text, fileListingSchema) };
  } catch (error) {
    return { error };
  }
}

/**
 * The streamed outcome agrees with the whole-text outcome: the same listing, or a refusal. The stream checks each
 * entry as it arrives, so when an entry and the rest are both wrong it may name the entry first: its message is then
 * the one checking that entry gives; otherwise the one checking the whole text gives.
 */
function expectSameAsWhole(text: string, cuts: readonly number[]): Outcome {
  const outcome = streamed(Buffer.from(text), cuts);
  const expected = whole(text);
  if (!('error' in outcome)) {
    expect('listing' in expected, `the stream accepted what the whole text refused: ${'error' in expected ? String(expected.error) : ''}`).toBe(true);
    expect(outcome.listing).toEqual((expected as { listing: unknown }).listing);
    return outcome;
  }
  const message = (outcome.error as Error).message;
  expect(outcome.error, message).toBeInstanceOf(InvalidResponseError);
  expect('error' in expected, `the whole text was accepted, the stream refused: ${message}`).toBe(true);
  const expectedMessage = (expected as { error: Error }).error.message;
  // A text that is not JSON is described from its beginning either way.
  if (/expected JSON/.test(expectedMessage)) return outcome;
  const entry = /\(files\[(\d+)\]/.exec(message);
  if (entry) {
    const index = Number(entry[1]);
    const files = (JSON.parse(text) as { files: unknown[] }).files;
    expect(() => checkShape(URL_OF_ANSWER, files[index], fileEntrySchema, ['files', index])).toThrow(message);
  } else {
    expect(message).toBe(expectedMessage);
  }
  return outcome;
}

const cuts = fc.array(fc.integer({ min: 1, max: 97 }), { maxLength: 8 });
/** Strings as a server may send them: NUL bytes, escapes, any code point, now and then a long one. */
const serverString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', '\u0000', 'a\u0000b.fts', '\ud800', '../x.fts', '\\u0000', '"', '\u2028'),
  fc.constantFrom('x', 'é', '😀').chain((char) => fc.integer({ min: 100, max: 3000 }).map((count) => char.repeat(count))),
);
const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 3 }), serverString);
const goodEntry = fc.record({
  'date-obs': fc.constant('2025-03-24T21:03:04'),
  filename: serverString,
  filesize: fc.oneof(fc.nat(), fc.constant(null)),
  instrument: fc.constant('kcor'),
  product: fc.constant('pb'),
  url: fc.constant('http://api.mlso.ucar.edu/v1/download?filename=a.fts.gz'),
});
const ENTRY_FIELDS = ['date-obs', 'filename', 'filesize', 'instrument', 'product', 'url'] as const;
/** An entry with one field given any value (often of the wrong type), one left out, or an unexpected one added. */
const oddEntry = fc.tuple(goodEntry, fc.constantFrom(...ENTRY_FIELDS, 'extra-field'), fc.option(anyValue, { nil: undefined })).map(([entry, field, value]) => {
  const odd: Record<string, unknown> = { ...entry };
  if (value === undefined) delete odd[field];
  else odd[field] = value;
  return odd;
});
const listing = fc.record(
  {
    instrument: fc.oneof(fc.constant('kcor'), anyValue),
    product: fc.constant('pb'),
    'start-date': fc.oneof(fc.constant('2025-03-24'), fc.constant(null), anyValue),
    files: fc.array(fc.oneof({ weight: 4, arbitrary: goodEntry }, { weight: 1, arbitrary: oddEntry }), { maxLength: 12 }),
    total_filesize: fc.oneof(fc.nat(), anyValue),
    unexpected: anyValue,
  },
  { requiredKeys: ['files'] },
);

describe('the streaming listing parser, against anything a server sends', () => {
  it('answers any JSON value as checking the whole text does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), listing), cuts, (value, pieces) => {
        expectSameAsWhole(JSON.stringify(value), pieces);
      }),
      RUNS,
    );
  });

  it('answers listings with odd entries as checking the whole text does, naming the entry and field', () => {
    fc.assert(
      fc.property(listing, cuts, (value, pieces) => {
        const outcome = expectSameAsWhole(JSON.stringify(value), pieces);
        if ('error' in outcome)
          expect((outcome.error as Error).message).toMatch(
            /\((the answer|files\[\d+\](\.[\w-]+)?|files|instrument|product|start-date|total_filesize)\b.*\)\. Check the server address/,
          );
      }),
      RUNS,
    );
  });

  it('refuses a listing cut short anywhere with an InvalidResponseError', () => {
    fc.assert(
      fc.property(listing, fc.nat(), cuts, (value, at, pieces) => {
        const text = JSON.stringify(value);
        const outcome = streamed(Buffer.from(text.slice(0, at % text.length)), pieces);
        expect('error' in outcome && outcome.error instanceof InvalidResponseError, 'error' in outcome ? String(outcome.error) : 'accepted').toBe(true);
      }),
      RUNS,
    );
  });

  it('refuses random bytes with an InvalidResponseError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), cuts, (bytes, pieces) => {
        const outcome = streamed(Buffer.from(bytes), pieces);
        if ('error' in outcome) expect(outcome.error, String(outcome.error)).toBeInstanceOf(InvalidResponseError);
        else expect(outcome.listing).toEqual(fileListingSchema.parse(JSON.parse(Buffer.from(bytes).toString())));
      }),
      RUNS,
    );
  });
});
