// The emulator honours Range on downloads (so resuming can be tested), and a knob turns that off (so the path of a
// server that always sends the whole file can be tested too).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type RunningEmulator } from '../../src-main/emulator';
import { answerRange, bytesOf } from '../../src-main/emulator/byte-ranges';
import { listFiles, rawGet, sessionCookie, type ListedFile } from './http-helpers';

let emulator: RunningEmulator;
let cookie: string;
let files: ListedFile[];

beforeAll(async () => {
  emulator = await createEmulator();
  files = await listFiles(emulator, 'kcor', 'pb', 'start-date=2025-03-24T20:00:00&end-date=2025-03-24T20:10:00');
});
afterAll(() => emulator.close());
beforeEach(async () => {
  emulator.setOptions({ bodyForm: 'alternate', byteRanges: true });
  emulator.resetStats();
  cookie = await sessionCookie(emulator);
});

function listed(index: number): ListedFile {
  const found = files[index];
  if (!found) throw new Error(`no listed file ${index}`);
  return found;
}

describe('Range on downloads', () => {
  for (const bodyForm of ['gzip-body', 'content-encoding'] as const) {
    it(`sends the rest of a ${bodyForm} body from the byte asked for, which joins the first part into the whole body`, async () => {
      emulator.setOptions({ bodyForm });
      const target = listed(0);
      const whole = await rawGet(target.url, { Cookie: cookie });
      expect(whole.status).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      const tag = String(whole.headers.etag);
      expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);

      const from = Math.floor(whole.body.length / 3);
      const rest = await rawGet(target.url, { Cookie: cookie, Range: `bytes=${from}-`, 'If-Range': tag });
      expect(rest.status).toBe(206);
      expect(rest.headers['content-range']).toBe(`bytes ${from}-${whole.body.length - 1}/${whole.body.length}`);
      expect(Number(rest.headers['content-length'])).toBe(whole.body.length - from);
      expect(rest.headers['content-encoding']).toBe(whole.headers['content-encoding']);
      expect(Buffer.concat([whole.body.subarray(0, from), rest.body]).equals(whole.body)).toBe(true);

      expect(emulator.stats()).toMatchObject({ partialDownloads: 1, partialStartsByFile: { [target.filename.replace(/\.gz$/, '')]: [from] } });
      expect(emulator.stats().downloadsCompleted).toBe(2);
    });
  }

  it('sends raw FITS (a name without .gz) by range too', async () => {
    const target = listed(1);
    const rawUrl = target.url.replace(/\.gz(?=&|$)/, '');
    const whole = await rawGet(rawUrl, { Cookie: cookie });
    expect(whole.headers['content-type']).toBe('application/octet-stream');
    const middle = await rawGet(rawUrl, { Cookie: cookie, Range: 'bytes=2880-5759' });
    expect(middle.status).toBe(206);
    expect(middle.body.equals(whole.body.subarray(2880, 5760))).toBe(true);
  });

  it('sends the whole body when If-Range names another version, or the header asks for several ranges or does not parse', async () => {
    const target = listed(2);
    const odd: Record<string, string>[] = [
      { Range: 'bytes=100-', 'If-Range': '"another-version-of-the-file"' },
      { Range: 'bytes=0-9,20-29' },
      { Range: 'lines=1-2' },
      { Range: 'bytes=x-y' },
    ];
    for (const headers of odd) {
      const answer = await rawGet(target.url, { Cookie: cookie, ...headers });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
      expect(answer.headers['content-range']).toBeUndefined();
    }
    expect(emulator.stats().partialDownloads).toBe(0);
  });

  it('answers a range past the end with 416 and the body length', async () => {
    const target = listed(3);
    const whole = await rawGet(target.url, { Cookie: cookie });
    const past = await rawGet(target.url, { Cookie: cookie, Range: `bytes=${whole.body.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${whole.body.length}`);
    expect(JSON.parse(past.body.toString()).message).toContain('range not satisfiable');
  });

  it('ignores Range with the byteRanges knob off: the whole file, no Accept-Ranges', async () => {
    emulator.setOptions({ byteRanges: false });
    const target = listed(4);
    const answer = await rawGet(target.url, { Cookie: cookie, Range: 'bytes=100-' });
    expect(answer.status).toBe(200);
    expect(answer.headers['accept-ranges']).toBeUndefined();
    expect(answer.headers['content-range']).toBeUndefined();
    expect(emulator.stats().partialDownloads).toBe(0);
  });
});

describe('range arithmetic', () => {
  it('takes the bytes of a span across chunk edges, and nothing past its end', () => {
    const chunks = [Buffer.from('abc'), Buffer.from('defg'), Buffer.from('hi')];
    const text = (start: number, end: number): string => Buffer.concat([...bytesOf(chunks, { start, end, length: 9 })]).toString();
    expect(text(0, 8)).toBe('abcdefghi');
    expect(text(2, 3)).toBe('cd');
    expect(text(3, 6)).toBe('defg');
    expect(text(8, 8)).toBe('i');
  });

  it('reads suffix ranges and clamps an end past the body', () => {
    expect(answerRange({ range: 'bytes=-4' }, 10, '"t"')).toEqual({ kind: 'partial', span: { start: 6, end: 9, length: 10 } });
    expect(answerRange({ range: 'bytes=5-99' }, 10, '"t"')).toEqual({ kind: 'partial', span: { start: 5, end: 9, length: 10 } });
    expect(answerRange({}, 10, '"t"')).toEqual({ kind: 'whole' });
  });
});
