// `files --json` written batch by batch: the text is JSON.stringify(listing, null, 2)'s own, with the entries
// first, whatever the batches; through the command line's output gate it still parses to the exact strings.
import { describe, expect, it } from 'vitest';
import type { FileEntry, FileListing } from '../../../src-shared/api/schemas';
import { CliOutput } from '../../../src-main/cli/output/cli-output';
import { StreamedListingJson } from '../../../src-main/cli/output/streamed-listing-json';
import { Capture } from '../../helpers/fixtures';

function kcorEntry(index: number): FileEntry {
  return {
    'date-obs': `2025-03-24T21:03:${String(index % 60).padStart(2, '0')}`,
    filename: `20250324_2103${String(index % 60).padStart(2, '0')}_kcor_l2_pb_${index}.fts`,
    filesize: index % 7 === 0 ? 0 : 2_582_027 + index,
    instrument: 'kcor',
    product: 'pb',
    url: `http://example.invalid/download?file=${index}`,
  } as FileEntry;
}

function ucompEntry(index: number): FileEntry {
  return {
    ...kcorEntry(index),
    instrument: 'ucomp',
    product: 'l2',
    'wave-region': '1074',
    'obs-plan': 'synoptic-1074',
    wavelengths: 5,
    nested: { beams: [1, 2], note: null },
  } as FileEntry;
}

/** Server text with C0, ESC sequences, C1, bidi overrides and line separators, which JSON.stringify leaves raw in part. */
const HOSTILE = {
  filename: 'evil\u001b]0;owned\u0007\u202egnp.fts',
  product: 'p\u009b2Jb\u0085',
  'obs-plan': 'a\u2028b\u2029c\u061c',
  instrument: 'kc\u0000or\u007f',
};

function listing(files: FileEntry[], rest: Partial<FileListing> = {}): FileListing {
  return {
    'end-date': '2025-03-25T00:00:00',
    files,
    instrument: 'kcor',
    product: 'pb',
    'start-date': '2025-03-24T00:00:00',
    total_filesize: 12345,
    ...rest,
  } as FileListing;
}

/** The streamed text of `whole`, its entries handed over in batches of `size`, the rest of the answer at the end. */
function streamed(whole: FileListing, size: number): string[] {
  const json = new StreamedListingJson();
  const pieces: string[] = [];
  for (let start = 0; start < whole.files.length; start += size) pieces.push(json.add(whole.files.slice(start, start + size)));
  pieces.push(json.end({ ...whole, files: [] }));
  return pieces;
}

/** JSON.stringify's own text of the listing with `files` as its first member. */
function filesFirst({ files, ...rest }: FileListing): string {
  return `${JSON.stringify({ files, ...rest }, null, 2)}\n`;
}

describe('StreamedListingJson', () => {
  it.each([
    ['KCor, one batch', listing(Array.from({ length: 5 }, (_, i) => kcorEntry(i))), 5],
    ['KCor, batches of 3', listing(Array.from({ length: 10 }, (_, i) => kcorEntry(i))), 3],
    ['one entry', listing([kcorEntry(1)]), 1],
    [
      'UCoMP with fields of its own',
      listing(
        Array.from({ length: 4 }, (_, i) => ucompEntry(i)),
        { instrument: 'ucomp', product: 'l2', extra: ['x'] } as Partial<FileListing>,
      ),
      2,
    ],
    ['no entries', listing([]), 1],
    ['no dates, null echoes', listing([kcorEntry(2)], { 'start-date': null, 'end-date': undefined }), 1],
    ['hostile strings', listing([{ ...kcorEntry(3), ...HOSTILE } as FileEntry, kcorEntry(4)], { instrument: 'kc\u001b[31mor' }), 1],
  ])('%s: JSON.stringify(listing, null, 2) exactly, the entries first', (_name, whole, size) => {
    const text = streamed(whole, size).join('');
    expect(text).toBe(filesFirst(whole));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(whole)));
  });

  it('an answer with nothing but its files still closes as JSON', () => {
    const json = new StreamedListingJson();
    expect(json.add([kcorEntry(1)]) + json.end({ files: [] } as unknown as FileListing)).toBe(`${JSON.stringify({ files: [kcorEntry(1)] }, null, 2)}\n`);
    expect(new StreamedListingJson().end({ files: [] } as unknown as FileListing)).toBe('{\n  "files": []\n}\n');
  });

  it('writes nothing before the first entries arrive, and no closing part until end(): a cut listing is no valid JSON', () => {
    const json = new StreamedListingJson();
    expect(json.add([])).toBe('');
    const partial = json.add([kcorEntry(1), kcorEntry(2)]);
    expect(() => JSON.parse(partial)).toThrow();
  });

  it('through the output gate, control characters are escaped and still parse to the exact strings', async () => {
    const stdout = new Capture();
    const out = new CliOutput({ quiet: false, verbose: false, stdout });
    const whole = listing([{ ...kcorEntry(3), ...HOSTILE } as FileEntry, kcorEntry(4)], { instrument: 'kc\u001b[31mor\u0085' });
    for (const piece of streamed(whole, 1)) await out.resultPart(piece);
    // Raw controls (but the layout's newlines), C1, bidi marks and Unicode line separators: none is printed as such.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be printed
    expect(stdout.text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u2028\u2029\u202a-\u202e]/);
    expect(stdout.text).toContain('p\\u009b2Jb\\u0085');
    expect(JSON.parse(stdout.text)).toEqual(JSON.parse(JSON.stringify(whole)));
  });
});
