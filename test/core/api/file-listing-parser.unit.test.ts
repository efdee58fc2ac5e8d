// The files listing is parsed as it streams in: each entry is checked as it completes and only the checked
// copy is kept. The result, and the message for an answer that is not a listing, are those of parsing the
// whole text and checking it with fileListingSchema.
import { describe, expect, it } from 'vitest';
import { FileListingParser, MAX_ENTRY_BYTES, MAX_OUTSIDE_FILES_BYTES } from '../../../src-main/core/api/file-listing-parser';
import { parseJsonAnswer } from '../../../src-main/core/api/json-answer';
import { InvalidResponseError } from '../../../src-main/core/errors';
import { fileListingSchema } from '../../../src-shared/api/schemas';

const URL_OF_ANSWER = 'http://127.0.0.1:5000/v1/instruments/kcor/products/pb/files/';

/** Parses `text` fed in pieces of `pieceSize` bytes (1 splits every UTF-8 character and every token). */
function streamed(text: string | Buffer, pieceSize = 1): unknown {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const parser = new FileListingParser(URL_OF_ANSWER);
  for (let offset = 0; offset < bytes.length; offset += pieceSize) parser.write(bytes.subarray(offset, offset + pieceSize));
  return parser.end();
}

function errorOf(attempt: () => unknown): Error {
  try {
    attempt();
  } catch (error) {
    return error as Error;
  }
  throw new Error('the answer was accepted');
}

const streamedError = (text: string, pieceSize = 1): Error => errorOf(() => streamed(text, pieceSize));

/** What checking the whole text at once reports (the client's behaviour before streaming). */
function wholeTextParse(text: string): unknown {
  return fileListingSchema.parse(JSON.parse(text));
}

const ENTRY =
  '{"date-obs":"2025-03-24T21:03:15","filename":"20250324_210315_kcor_l2_pb.fts","filesize":1234,"instrument":"kcor","product":"pb","url":"http://x/v1/download?filename=a.fts.gz"}';
const UCOMP_ENTRY =
  '{"date-obs":"2025-03-24T19:00:00","filename":"20250324.190000.ucomp.789.l2.fts","filesize":null,"instrument":"ucomp","obs-plan":"waves","product":"l2","url":"u","wave-region":"789","wavelengths":3,"nested":{"a":[1,2,{"b":"é"}]}}';

describe('the streaming file listing parser', () => {
  it('gives what parsing the whole text gives, fed one byte at a time, unknown fields included', () => {
    const text = `{"end-date":"2025-03-25","files":[${ENTRY},${UCOMP_ENTRY}],"instrument":"kcor","product":"pb","start-date":null,"total_filesize":null,"future":{"files":[1]},"π":"ünïcode"}`;
    const listing = streamed(text);
    expect(listing).toEqual(wholeTextParse(text));
    expect(listing).toMatchObject({ future: { files: [1] }, π: 'ünïcode', total_filesize: 0 });
    expect((listing as { files: unknown[] }).files[1]).toMatchObject({ filesize: 0, nested: { a: [1, 2, { b: 'é' }] } });
  });

  it('handles a listing with no files, files before or after the other fields, a byte-order mark and surrounding space', () => {
    for (const text of [
      '{"instrument":"kcor","product":"pb","files":[]}',
      `  {"files":[${ENTRY}],"instrument":"kcor","product":"pb","total_filesize":5}\n`,
      `\uFEFF{"instrument":"kcor","files":[${ENTRY}],"product":"pb"}`,
    ]) {
      expect(streamed(text, 3), text).toEqual(wholeTextParse(text.replace(/^\uFEFF/, '')));
    }
  });

  it('reads the syntax of the files array as JSON.parse does, cut anywhere: commas, spaces, brackets and quotes in strings', () => {
    const tricky = `{"date-obs":"2025-03-24T21:03:15","filename":"a \\"],[{\\\\","filesize":1,"instrument":"kcor","product":"pb","url":"u","x":[[],{},"]}"]}`;
    const arrays = [
      `[]`,
      ` [ ${ENTRY} , ${tricky}\n,\t${ENTRY} ] `,
      `[${ENTRY},]`,
      `[,${ENTRY}]`,
      `[${ENTRY},,${ENTRY}]`,
      `[${ENTRY} ${ENTRY}]`,
      `[${ENTRY}${ENTRY}]`,
      `[${ENTRY}}`,
      `[${ENTRY}`,
      `[1 2]`,
      `[tru e]`,
      `[null]`,
      `["x"]`,
      `[${ENTRY},7]`,
      `[${ENTRY.slice(0, -1)}]`,
      `[${ENTRY}]]`,
    ];
    for (const files of arrays) {
      const text = `{"instrument":"kcor","files":${files},"product":"pb"}`;
      let whole: unknown;
      try {
        whole = wholeTextParse(text);
      } catch {
        whole = undefined;
      }
      for (const pieceSize of [1, 2, 7, 64, text.length]) {
        if (whole === undefined) expect(streamedError(text, pieceSize), `${files} in pieces of ${pieceSize}`).toBeInstanceOf(InvalidResponseError);
        else expect(streamed(text, pieceSize), `${files} in pieces of ${pieceSize}`).toEqual(whole);
      }
    }
  });

  it('keeps the last files array when the key repeats, as JSON.parse does', () => {
    const text = `{"instrument":"kcor","product":"pb","files":[${ENTRY},${ENTRY}],"files":[${UCOMP_ENTRY}]}`;
    expect(streamed(text)).toEqual(wholeTextParse(text));
  });

  it('refuses an HTML page, an empty body and broken JSON with the messages of old', () => {
    const cases: [string, string][] = [
      ['<html><body>maintenance</body></html>', 'expected JSON, got an HTML page'],
      ['', 'expected JSON, got an empty body'],
      ['  \n ', 'expected JSON, got an empty body'],
      ['{"files": [', 'expected JSON, got "{"files": ["'],
      ['{"instrument":"kcor","product":"pb","files":[]} trailing', 'expected JSON, got "{"instrument":"kcor","product":"pb","fil…"'],
      ['{"instrument":"kcor"} {"product":"pb"}', 'expected JSON, got "{"instrument":"kcor"} {"product":"pb"}"'],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY},]}`, `expected JSON, got "{"instrument":"kcor","product":"pb","fil…"`],
      // A number is known complete only at the end, so the second value of these arrives when the answer ends
      // (found by the random-bytes property, seed 1079141433: "00").
      ['00', 'expected JSON, got "00"'],
      ['1 2', 'expected JSON, got "1 2"'],
      ['{"files":[]} 0', 'expected JSON, got "{"files":[]} 0"'],
    ];
    for (const [text, detail] of cases) {
      const error = streamedError(text);
      expect(error, text).toBeInstanceOf(InvalidResponseError);
      expect(error.message, text).toBe(new InvalidResponseError(URL_OF_ANSWER, detail).message);
    }
  });

  it('refuses wrong shapes naming the field, as checking the whole text did', () => {
    const cases = [
      '[1,2]',
      '"a string"',
      '{"instrument":"kcor","product":"pb"}',
      '{"instrument":"kcor","product":"pb","files":{"a":{}}}',
      '{"instrument":"kcor","product":"pb","files":"none"}',
      `{"instrument":"kcor","product":"pb","files":[${ENTRY},{"filename":"b.fts"}]}`,
      `{"instrument":"kcor","product":"pb","files":[${ENTRY},${ENTRY.replace('"filesize":1234', '"filesize":-1')}]}`,
      `{"instrument":"kcor","product":"pb","files":[${ENTRY},7]}`,
      `{"instrument":3,"product":"pb","files":[${ENTRY}]}`,
    ];
    for (const text of cases) {
      expect(fileListingSchema.safeParse(JSON.parse(text)).success, text).toBe(false);
      const whole = errorOf(() => parseJsonAnswer(URL_OF_ANSWER, text, fileListingSchema));
      expect(streamedError(text, 7).message, text).toBe(whole.message);
    }
  });

  it("says in plain words what was wrong and where, never in the schema library's terms", () => {
    const cases: [string, string][] = [
      ['[1,2]', 'the answer should be an object, not a list'],
      ['{"instrument":"kcor","product":"pb"}', 'files is missing'],
      ['{"instrument":"kcor","product":"pb","files":"none"}', 'files should be a list, not text'],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY},{"filename":"b.fts"}]}`, 'files[1].date-obs is missing'],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY.replace(/,"url":"[^"]*"/, '')}]}`, 'files[0].url is missing'],
      [
        `{"instrument":"kcor","product":"pb","files":[${ENTRY.replace('"filesize":1234', '"filesize":"1234"')}]}`,
        'files[0].filesize should be a number, not text',
      ],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY.replace('"filesize":1234', '"filesize":-1')}]}`, 'files[0].filesize should be 0 or more, not -1'],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY.replace(/"url":"[^"]*"/, '"url":""')}]}`, 'files[0].url is empty'],
      [`{"instrument":"kcor","product":"pb","files":[${ENTRY},7]}`, 'files[1] should be an object, not a number'],
      [`{"instrument":3,"product":"pb","files":[${ENTRY}]}`, 'instrument should be text, not a number'],
      [
        `{"instrument":"kcor","product":"pb","files":[${ENTRY.replace('"filename":"20250324_210315_kcor_l2_pb.fts"', '"filename":null')}]}`,
        'files[0].filename should be text, not null',
      ],
    ];
    for (const [text, detail] of cases) expect(streamedError(text, 5).message, text).toBe(new InvalidResponseError(URL_OF_ANSWER, detail).message);
  });

  it('numbers entries across the whole answer, also after some were handed over', () => {
    const parser = new FileListingParser(URL_OF_ANSWER);
    parser.write(Buffer.from(`{"instrument":"kcor","product":"pb","files":[${ENTRY},${ENTRY}`));
    expect(parser.takeEntries()).toHaveLength(2);
    expect(() => parser.write(Buffer.from(`,${ENTRY},{"filename":7}`))).toThrow('(files[3].date-obs is missing)');
  });

  it('collects every entry of a listing written in many pieces', () => {
    const parser = new FileListingParser(URL_OF_ANSWER);
    parser.write(Buffer.from(`{"instrument":"kcor","product":"pb","files":[${ENTRY}`));
    for (let i = 0; i < 1_000; i += 1) parser.write(Buffer.from(`,${ENTRY}`));
    parser.write(Buffer.from(']}'));
    const listing = parser.end();
    expect(listing.files).toHaveLength(1_001);
    expect(listing.files[1_000]).toEqual(JSON.parse(ENTRY));
  });
});

describe('the file listing parser, against answers that would fill the memory', () => {
  /** Writes `head`, then `filler` in 16 KB pieces until the parser refuses (or `max` bytes); returns the refusal and the bytes written. */
  function feedUntilRefused(head: string, filler: string, max = 50 * 1024 * 1024): { error: Error; written: number } {
    const parser = new FileListingParser(URL_OF_ANSWER);
    const piece = Buffer.from(filler.repeat(Math.ceil((16 * 1024) / filler.length)));
    let written = 0;
    try {
      parser.write(Buffer.from(head));
      for (written = head.length; written < max; written += piece.length) parser.write(piece);
      parser.end();
    } catch (error) {
      return { error: error as Error, written };
    }
    throw new Error(`the parser took ${written} bytes without refusing`);
  }

  it('refuses a string of 50 MB in an entry once 64 KB of it are in, naming the entry', () => {
    const { error, written } = feedUntilRefused(`{"instrument":"kcor","product":"pb","files":[${ENTRY},{"filename":"`, 'x');
    expect(error.message).toBe(new InvalidResponseError(URL_OF_ANSWER, 'files[1] is longer than 64 KB, far beyond any file entry').message);
    expect(written).toBeLessThan(MAX_ENTRY_BYTES + 64 * 1024);
  });

  it('refuses an endless number the same way, and endless nesting sooner, in its first piece', () => {
    expect(feedUntilRefused('{"files":[', '1').error.message).toMatch(/files\[0\] is longer than 64 KB/);
    const nesting = feedUntilRefused(`{"files":[${ENTRY},`, '[');
    expect(nesting.error.message).toMatch(/files\[1\] nests more than 64 levels deep/);
    expect(nesting.written).toBeLessThan(MAX_ENTRY_BYTES);
  });

  it('refuses megabytes of spaces between entries once 64 KB of them are in, and after the files at 4 MB', () => {
    const between = feedUntilRefused(`{"instrument":"kcor","product":"pb","files":[${ENTRY},`, ' ');
    expect(between.error.message).toMatch(/\(files\[1\] is longer than 64 KB/);
    expect(between.written).toBeLessThan(MAX_ENTRY_BYTES + 64 * 1024);
    const after = feedUntilRefused(`{"instrument":"kcor","product":"pb","files":[${ENTRY}]`, '\n');
    expect(after.error.message).toMatch(/\(the answer holds more than 4 MB besides its files\)/);
    expect(after.written).toBeLessThan(MAX_OUTSIDE_FILES_BYTES + 64 * 1024);
  });

  it('refuses more than 4 MB besides the files: a huge field, before or after them', () => {
    for (const head of ['{"instrument":"', `{"files":[${ENTRY}],"extra":[`]) {
      const { error, written } = feedUntilRefused(head, head.endsWith('[') ? '1,' : 'x');
      expect(error.message, head).toMatch(/\(the answer holds more than 4 MB besides its files\)/);
      expect(written).toBeLessThan(MAX_OUTSIDE_FILES_BYTES + 64 * 1024);
    }
  });

  it('takes entries just under the limit, and any number of them', () => {
    const big = ENTRY.replace('}', `,"notes":"${'n'.repeat(MAX_ENTRY_BYTES - ENTRY.length - 20)}"}`);
    const count = Math.ceil((2 * MAX_OUTSIDE_FILES_BYTES) / MAX_ENTRY_BYTES) + 1;
    const text = `{"instrument":"kcor","product":"pb","files":[${Array.from({ length: count }, () => big).join(',')}]}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_OUTSIDE_FILES_BYTES * 2);
    expect((streamed(text, 4096) as { files: unknown[] }).files).toHaveLength(count);
  });
});

describe('the file listing parser, streaming', () => {
  it('hands over each entry once, in order, and end() keeps only what was not taken', () => {
    const text = `{"instrument":"kcor","files":[${ENTRY},${UCOMP_ENTRY},${ENTRY}],"product":"pb"}`;
    const parser = new FileListingParser(URL_OF_ANSWER);
    const taken: unknown[] = [];
    const bytes = Buffer.from(text);
    for (let offset = 0; offset < bytes.length; offset += 50) {
      parser.write(bytes.subarray(offset, offset + 50));
      for (const entry of parser.takeEntries()) taken.push(entry.filename);
    }
    const rest = parser.end();
    expect([...taken, ...rest.files.map((entry) => entry.filename)]).toEqual(
      (wholeTextParse(text) as { files: { filename: string }[] }).files.map((f) => f.filename),
    );
    expect(rest).toMatchObject({ instrument: 'kcor', product: 'pb' });
  });

  it('refuses a second files array once entries of the first were handed over', () => {
    const parser = new FileListingParser(URL_OF_ANSWER);
    parser.write(Buffer.from(`{"files":[${ENTRY}],`));
    expect(parser.takeEntries()).toHaveLength(1);
    expect(() => {
      parser.write(Buffer.from(`"files":[${ENTRY}]}`));
      parser.end();
    }).toThrow(/lists its files twice/);
  });
});
