// The streaming listing parser against answers built to make it work hard rather than to fill the memory: its work
// stays linear in the answer (counted as the tokens its tokenizers emit, never timed), nesting a stack-bound
// JSON.stringify cannot write is refused, and listings whose strings hold runs of backslashes, quotes, brackets and
// escapes, cut anywhere, give exactly the entries JSON.parse gives.
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { FileListingParser, MAX_NESTING } from '../../src-main/core/api/file-listing-parser';
import { InvalidResponseError } from '../../src-main/core/errors';
import { fileListingSchema } from '../../src-shared/api/schemas';

/** Every token any of the parser's tokenizers emits, heard or not: the measure of its byte by byte work. */
const tokens = vi.hoisted(() => ({ emitted: 0 }));

vi.mock('@streamparser/json', async (importOriginal) => {
  const original = await importOriginal<typeof import('@streamparser/json')>();
  type Listener = (typeof original.Tokenizer.prototype)['onToken'];
  class CountingTokenizer extends original.Tokenizer {
    constructor(...options: ConstructorParameters<typeof original.Tokenizer>) {
      super(...options);
      // The parser sets onToken on each tokenizer it makes; the tokenizer calls it for every token it finds.
      let listener: Listener = () => undefined;
      const counting: Listener = (token) => {
        tokens.emitted += 1;
        listener(token);
      };
      Object.defineProperty(this, 'onToken', {
        get: () => counting,
        set: (set: Listener) => {
          listener = set;
        },
      });
    }
  }
  return { ...original, Tokenizer: CountingTokenizer };
});

const URL_OF_ANSWER = 'http://127.0.0.1:5000/v1/instruments/kcor/products/pb/files/';
const ENTRY =
  '{"date-obs":"2025-03-24T21:03:15","filename":"20250324_210315_kcor_l2_pb.fts","filesize":1234,"instrument":"kcor","product":"pb","url":"http://x/v1/download?filename=a.fts.gz"}';

function streamed(bytes: Buffer, pieceSizes: readonly number[]): { listing: unknown } | { error: unknown } {
  const parser = new FileListingParser(URL_OF_ANSWER);
  try {
    for (let offset = 0, index = 0; offset < bytes.length; index += 1) {
      const size = pieceSizes[index % pieceSizes.length]!;
      parser.write(bytes.subarray(offset, offset + size));
      offset += size;
    }
    return { listing: parser.end() };
  } catch (error) {
    return { error };
  }
}

describe('the listing parser, against answers built to make it work', () => {
  it('tokenizes what follows a files array once, however many files arrays a piece holds', () => {
    for (const files of ['[]', `[${ENTRY}]`]) {
      for (const pieceSize of [64 * 1024, 1_000_000]) {
        const text = `{"instrument":"kcor","product":"pb"${`,"files":${files}`.repeat(2_000)}}`;
        tokens.emitted = 0;
        const outcome = streamed(Buffer.from(text), [pieceSize]);
        expect(outcome).toEqual({ listing: fileListingSchema.parse(JSON.parse(text)) });
        // A token takes a byte at least; a tokenizer reading each piece to its end after each array took 50 to 400 times more.
        expect(tokens.emitted, `${files} in pieces of ${pieceSize}`).toBeLessThanOrEqual(text.length);
      }
    }
  });

  it('searches the strings of an entry once, however finely it is cut, even when they are runs of escaped quotes', () => {
    // The scan looks for the end of a string with indexOf: the bytes those searches go over, counted.
    const indexOf = Buffer.prototype.indexOf as (this: Buffer, ...args: unknown[]) => number;
    let searched = 0;
    const spy = vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(function (this: Buffer, ...args: unknown[]) {
      const found = indexOf.apply(this, args);
      searched += (found < 0 ? this.length : found + 1) - Number(args[1] ?? 0);
      return found;
    });
    try {
      const filename = `${'\\"'.repeat(12_000)}${'\\'.repeat(9)}`;
      const text = `{"instrument":"kcor","product":"pb","files":[${ENTRY},${ENTRY.replace('"filename":"', `"filename":"${JSON.stringify(filename).slice(1, -1)}`)}]}`;
      for (const pieceSize of [1, 3, 1000, text.length]) {
        searched = 0;
        expect(streamed(Buffer.from(text), [pieceSize])).toEqual({ listing: fileListingSchema.parse(JSON.parse(text)) });
        expect(searched, `in pieces of ${pieceSize}`).toBeGreaterThan(20_000);
        expect(searched, `in pieces of ${pieceSize}`).toBeLessThanOrEqual(text.length);
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the listing parser, against nesting no entry has', () => {
  const deep = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const listingWith = (entryExtra: string, outside = '1'): string =>
    `{"instrument":"kcor","product":"pb","x":${outside},"files":[${ENTRY},${ENTRY.replace('}', `,"x":${entryExtra}}`)}]}`;

  it(`takes ${MAX_NESTING} levels in an entry and besides the files, and refuses one more, naming where`, () => {
    const inEntry = MAX_NESTING - 1; // the entry's own object is a level
    const besides = MAX_NESTING - 1; // the answer's object is a level
    for (const pieceSize of [1, 7, 4096]) {
      const fine = listingWith(deep(inEntry), deep(besides));
      expect(streamed(Buffer.from(fine), [pieceSize])).toEqual({ listing: fileListingSchema.parse(JSON.parse(fine)) });
      for (const [text, place] of [
        [listingWith(deep(inEntry + 1)), 'files[1] nests more than 64 levels deep, far beyond any file entry'],
        [listingWith('1', deep(besides + 1)), 'the answer nests more than 64 levels deep, far beyond any listing'],
      ] as const) {
        const outcome = streamed(Buffer.from(text), [pieceSize]);
        expect('error' in outcome && (outcome.error as Error).message, `${place} in pieces of ${pieceSize}`).toBe(
          new InvalidResponseError(URL_OF_ANSWER, place).message,
        );
      }
    }
  });

  it('refuses a deep entry however deep, without reading it all', () => {
    const outcome = streamed(Buffer.from(listingWith(deep(30_000))), [16 * 1024]);
    expect('error' in outcome && (outcome.error as Error).message).toMatch(/\(files\[1\] nests more than 64 levels deep/);
  });
});

describe('the listing parser, against broken syntax around the files array', () => {
  it('refuses a files array with no colon before it with its plain error (found by the property below, with more runs)', () => {
    for (const files of ['"files"[]', '"files" [ ]', `"files"[${ENTRY}]`, '"files"{}']) {
      const text = `{"instrument":"kcor","product":"pb",${files}}`;
      for (const pieceSize of [1, 5, text.length]) {
        const outcome = streamed(Buffer.from(text), [pieceSize]);
        expect('error' in outcome && (outcome.error as Error).message, `${text} in pieces of ${pieceSize}`).toBe(
          new InvalidResponseError(URL_OF_ANSWER, 'expected JSON, got "{"instrument":"kcor","product":"pb","fil…"').message,
        );
      }
    }
  });
});

/** Text a server may put in strings to fool a scan for their ends: backslash runs, quotes, brackets, escapes. */
const trickyString = fc
  .array(fc.constantFrom('\\', '\\\\', '"', '\\"', ']', '[', '}', '{', ',', ' ', 'é', '😀', '\u0000', '\\u0022', 'a'), { maxLength: 30 })
  .map((parts) => parts.join(''));
const entry = fc.record({
  'date-obs': fc.constant('2025-03-24T21:03:04'),
  filename: trickyString,
  filesize: fc.nat(),
  instrument: fc.constant('kcor'),
  product: fc.constant('pb'),
  url: fc.constant('u'),
  extra: fc.oneof(trickyString, fc.array(trickyString, { maxLength: 3 }), fc.dictionary(trickyString, trickyString, { maxKeys: 3 })),
});
const pieceSizes = fc.array(fc.integer({ min: 1, max: 61 }), { minLength: 1, maxLength: 6 });
/** The listing's text, now and then with spaces and newlines around its commas and brackets. */
const listingText = fc.tuple(fc.array(entry, { maxLength: 8 }), fc.constantFrom('', ' ', '\n\t '), fc.boolean()).map(([files, space, unicode]) => {
  // Now and then the escaped quotes and backslashes written as unicode escapes, as another server may write them.
  const text = (file: unknown): string =>
    unicode ? JSON.stringify(file).replace(/\\(["\\])/g, (_, char) => (char === '"' ? '\\u0022' : '\\u005C')) : JSON.stringify(file);
  return `{"instrument":"kcor","product":"pb","files":[${space}${files.map(text).join(`${space},${space}`)}${space}]}`;
});

describe('the listing parser, against strings made to fool the scan for their end', () => {
  it('gives the entries JSON.parse gives for listings cut anywhere', () => {
    fc.assert(
      fc.property(listingText, pieceSizes, (text, sizes) => {
        expect(streamed(Buffer.from(text), sizes)).toEqual({ listing: fileListingSchema.parse(JSON.parse(text)) });
      }),
      { numRuns: 400 },
    );
  });

  it('refuses them with its plain error once a byte is taken out or put in, never with other entries', () => {
    const odd = ['"', '\\', ',', ']', '}', '[', '{', 'x', ' '];
    fc.assert(
      fc.property(listingText, fc.nat(), fc.constantFrom(...odd, ''), pieceSizes, (text, at, put, sizes) => {
        // Cut as bytes, so a byte may land inside a character: JSON.parse then reads the bytes as the client does.
        const bytes = Buffer.from(text);
        const place = at % bytes.length;
        const broken = Buffer.concat([bytes.subarray(0, place), Buffer.from(put), bytes.subarray(place + (put === '' ? 1 : 0))]);
        let whole: unknown;
        try {
          whole = fileListingSchema.parse(JSON.parse(broken.toString()));
        } catch {
          whole = undefined;
        }
        const outcome = streamed(broken, sizes);
        if (whole === undefined) expect('error' in outcome && outcome.error instanceof InvalidResponseError, broken.toString()).toBe(true);
        else expect(outcome, broken.toString()).toEqual({ listing: whole });
      }),
      { numRuns: 400 },
    );
  });

  it('finds the end of a string ending in any run of backslashes, cut at every place', () => {
    for (let run = 0; run <= 9; run += 1) {
      const file = {
        'date-obs': '2025-03-24T21:03:04',
        filename: `${'\\'.repeat(run)}"${'\\'.repeat(run)}`,
        filesize: 1,
        instrument: 'kcor',
        product: 'pb',
        url: 'u',
      };
      const text = `{"instrument":"kcor","product":"pb","files":[${JSON.stringify(file)},${JSON.stringify(file)}]}`;
      const expected = { listing: fileListingSchema.parse(JSON.parse(text)) };
      for (let cut = 1; cut < text.length; cut += 1)
        expect(streamed(Buffer.from(text), [cut, text.length]), `${run} backslashes, cut at ${cut}`).toEqual(expected);
    }
  });
});
