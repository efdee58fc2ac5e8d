// Names and addresses from a hostile listing: whatever string the server sends as `filename`, the enqueuer either
// refuses the entry (and reports it) or queues it as one plain name inside the download folder, on POSIX and
// Windows alike, with a temporary name that is one path component the disk can hold; and a download address on
// another server is refused and reported unless other servers are allowed.
import { access } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { openLedgerFile } from '../state/state-file';
import { ListingEnqueuer, type EnqueuerHost } from '../../../src-main/core/downloads/listing-enqueuer';
import { LONGEST_PATH_BYTES } from '../../../src-main/core/downloads/path-limits';
import { temporaryNameFor } from '../../../src-main/core/downloads/temporary-files';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { MAX_NAME_BYTES, utf8Length } from '../../../src-shared/files/safe-filename';
import { temporaryFolder } from '../../helpers/fixtures';

const API = 'http://api.mlso.ucar.edu';

let ledger: DownloadLedger;
let folder: string;
beforeAll(async () => {
  ledger = openLedgerFile(path.join(await temporaryFolder(), 'ledger.sqlite'));
  folder = await temporaryFolder();
});
afterAll(() => ledger.close());

function host(client = new MlsoClient({ baseUrl: API })): EnqueuerHost {
  return {
    ledger,
    batchId: null,
    isRunning: () => false,
    addressProblem: (url) => client.downloadAddressRefusal(url)?.message,
    freeSpace: async () => Number.MAX_SAFE_INTEGER,
    onQueued: () => undefined,
  };
}

function entry(filename: string, url = `${API}/v1/download?obsday-id=1&filename=x.fts.gz`): FileEntry {
  return { 'date-obs': '2025-03-24T21:03:04', filename, filesize: 0, instrument: 'kcor', product: 'pb', url };
}

/** One entry through a fresh enqueuer: what it refused, or the target path of the job it queued. */
async function take(filename: string, client?: MlsoClient, url?: string): Promise<{ refused: string } | { targetPath: string }> {
  const enqueuer = await ListingEnqueuer.open(host(client), folder, 'skip');
  await enqueuer.add([entry(filename, url)]);
  const [rejected] = enqueuer.result.rejected;
  if (rejected) return { refused: rejected.reason };
  const [id] = enqueuer.result.queued;
  expect(id, `${JSON.stringify(filename)} was neither queued nor refused`).toBeDefined();
  return { targetPath: ledger.get(id!)!.targetPath };
}

/** A name each of the path rules of POSIX and Windows reads as one component, and nothing else. */
function isOneComponent(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('\0') && path.posix.basename(name) === name && path.win32.basename(name) === name && !/[:]/.test(name);
}

// Chunks a hostile name is made of: separators, dots, drive letters, device names, controls, long runs of
// multi-byte characters (UTF-8 bytes pile up faster than characters), lone surrogates.
const chunk = fc.oneof(
  fc.constantFrom(
    '..',
    '.',
    '/',
    '\\',
    'C:',
    'c:\\',
    '//',
    '\0',
    ' ',
    'CON',
    'nul',
    'COM1',
    'LPT¹',
    'conin$',
    '.fts',
    '.gz',
    '~',
    '\u202e',
    '\ud800',
    '\udc00',
  ),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)), maxLength: 8 }),
  fc.constantFrom('a', 'é', '€', '𝔸', '😀').chain((char) => fc.integer({ min: 1, max: 130 }).map((count) => char.repeat(count))),
);
/** Plain names of multi-byte characters close to the 255-byte limit, where a temporary name's affixes push past it. */
const nearTheLimit = fc
  .tuple(fc.constantFrom('a', 'é', '€', '𝔸'), fc.integer({ min: 200, max: 260 }))
  .map(([char, bytes]) => char.repeat(Math.floor(bytes / utf8Length(char))) + '.fts');
const hostileName = fc.oneof(
  fc.array(chunk, { maxLength: 6 }).map((chunks) => chunks.join('')),
  fc.string({ unit: 'binary', maxLength: 300 }),
  nearTheLimit,
);

describe('a listed file name, whatever it is', () => {
  it('is refused, or queued as one plain name inside the folder with a temporary name the disk can hold', async () => {
    await fc.assert(
      fc.asyncProperty(hostileName, async (name) => {
        const outcome = await take(name);
        if ('refused' in outcome) {
          expect(outcome.refused).toMatch(/^unsafe file name: /);
          return;
        }
        expect(path.dirname(outcome.targetPath)).toBe(folder);
        expect(path.basename(outcome.targetPath)).toBe(name);
        expect(isOneComponent(name)).toBe(true);
        const temporary = temporaryNameFor(name);
        expect(isOneComponent(temporary)).toBe(true);
        expect(utf8Length(temporary)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      }),
      { numRuns: 400 },
    );
  });

  it.each([
    ['../escape.fts'],
    ['..\\escape.fts'],
    ['/etc/passwd'],
    ['C:\\Windows\\win.ini'],
    ['C:win.ini'],
    ['sub/dir.fts'],
    ['nul\0.fts'],
    ['CON.fts'],
    ['nul.fits'],
    ['Com1.fts'],
    ['LPT².fts'],
    ['CONOUT$'],
    ['con .fts'],
    ['...'],
    ['name.fts.'],
    ['name.fts '],
    ['a\ud800.fts'],
    ['é'.repeat(128) + '.fts'],
  ])('refuses %j and reports why', async (name) => {
    expect(await take(name)).toMatchObject({ refused: expect.stringMatching(/^unsafe file name: the name /) });
  });

  it('keeps a name of 255 bytes whose temporary name would be longer: the temporary name is shortened, byte-wise', async () => {
    const name = '€'.repeat(83) + '.fts'; // 253 bytes in 87 characters
    expect(await take(name)).toEqual({ targetPath: path.join(folder, name) });
    const temporary = temporaryNameFor(name);
    expect(utf8Length(temporary)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    // No character cut in half: the name survives a round trip through UTF-8.
    expect(Buffer.from(temporary, 'utf8').toString('utf8')).toBe(temporary);
  });
});

describe('names that differ only in letter case', () => {
  it('are taken once per folder: the later one is refused with the earlier one named, also across chunks', async () => {
    const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip');
    await enqueuer.add([entry('KCOR_case.fts'), entry('kcor_case.fts'), entry('other_case.fts')]);
    // A later chunk, and a name equal once normalised (é as e + combining accent) and case-folded.
    await enqueuer.add([entry('Kcor_Case.FTS'), entry('accent_\u00e9.fts'), entry('ACCENT_E\u0301.fts')]);
    expect(enqueuer.result.rejected).toEqual([
      { filename: 'kcor_case.fts', reason: 'its name differs from "KCOR_case.fts" only in letter case; many disks would store both as one file' },
      { filename: 'Kcor_Case.FTS', reason: 'its name differs from "KCOR_case.fts" only in letter case; many disks would store both as one file' },
      { filename: 'ACCENT_E\u0301.fts', reason: 'its name differs from "accent_\u00e9.fts" only in letter case; many disks would store both as one file' },
    ]);
    expect(enqueuer.result.queued.map((id) => path.basename(ledger.get(id)!.targetPath))).toEqual(['KCOR_case.fts', 'other_case.fts', 'accent_\u00e9.fts']);
  });

  it('of a chunk that could not be queued are forgotten with it: the same names queue later', async () => {
    let free = 10;
    const enqueuer = await ListingEnqueuer.open({ ...host(), freeSpace: async () => free }, folder, 'skip');
    const big = (filename: string): FileEntry => ({ ...entry(filename), filesize: 1_000 });
    await expect(enqueuer.add([big('Retry_case.fts'), big('retry_case2.fts')])).rejects.toThrow(/space/i);
    free = Number.MAX_SAFE_INTEGER;
    await enqueuer.add([entry('Retry_case.fts'), entry('retry_CASE2.fts')]);
    expect(enqueuer.result.rejected).toEqual([]);
    expect(enqueuer.result.queued).toHaveLength(2);
  });

  it('go to different folders of a layout without a clash', async () => {
    const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip', (listed) => (listed.filename.startsWith('U') ? 'upper' : 'lower'));
    await enqueuer.add([entry('Ucase_layout.fts'), entry('ucase_layout.fts')]);
    expect(enqueuer.result.rejected).toEqual([]);
    expect(enqueuer.result.queued).toHaveLength(2);
  });
});

describe('a place from the folder layout', () => {
  // Campaign layouts are checked when they are made; the enqueuer checks each place again, whatever made it.
  it.each([['../outside'], ['a/../../outside'], ['/etc'], ['..']])('%j, outside the folder, is refused and reported', async (place) => {
    const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip', () => place);
    await enqueuer.add([entry(`escape_${place.length}_${place.charCodeAt(0)}.fts`)]);
    expect(enqueuer.result.rejected).toEqual([{ filename: expect.any(String), reason: 'its place in the folder layout would be outside the folder' }]);
    expect(enqueuer.result.queued).toEqual([]);
  });

  it('given to a name already taken for another folder is refused and reported, in the same chunk or a later one; the same place again is skipped quietly', async () => {
    const places = new Map([
      ['again_a.fts', ['first', 'second']],
      ['again_b.fts', ['first', 'first']],
      ['again_c.fts', ['', 'other/deep']],
    ]);
    const asked = new Map<string, number>();
    const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip', (listed) => {
      const times = asked.get(listed.filename) ?? 0;
      asked.set(listed.filename, times + 1);
      // The first place for the first listing of a name, the second for every later one.
      return places.get(listed.filename)![Math.min(times, 1)]!;
    });
    await enqueuer.add([entry('again_a.fts'), entry('again_a.fts'), entry('again_b.fts'), entry('again_c.fts')]);
    await enqueuer.add([entry('again_b.fts'), entry('again_c.fts')]);
    expect(enqueuer.result.rejected).toEqual([
      { filename: 'again_a.fts', reason: 'it is listed again for another place in the folder layout (second, first first); only the first is taken' },
      {
        filename: 'again_c.fts',
        reason: 'it is listed again for another place in the folder layout (other/deep, first the folder itself); only the first is taken',
      },
    ]);
    expect(enqueuer.result.queued.map((id) => path.relative(folder, ledger.get(id)!.targetPath))).toEqual([
      path.join('first', 'again_a.fts'),
      path.join('first', 'again_b.fts'),
      'again_c.fts',
    ]);
  });

  it('whose path would pass the system limit is refused with the length, and the other files of the chunk are queued', async () => {
    // Folders of 100 bytes, past the limit under any temporary folder; nothing is made on the disk for it.
    const deep = Array.from({ length: Math.ceil(LONGEST_PATH_BYTES / 101) + 1 }, (_, index) => `${index}`.padEnd(100, 'd')).join('/');
    const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip', (listed) => (listed.filename === 'deep_one.fts' ? deep : 'shallow'));
    await enqueuer.add([entry('deep_one.fts'), entry('shallow_one.fts')]);
    const length = utf8Length(path.join(folder, deep, temporaryNameFor('deep_one.fts')));
    expect(enqueuer.result.rejected).toEqual([
      {
        filename: 'deep_one.fts',
        reason: `its path would be ${length.toLocaleString('en-US')} bytes, more than the system allows (${LONGEST_PATH_BYTES.toLocaleString('en-US')}); choose a shorter folder or layout`,
      },
    ]);
    await expect(access(path.join(folder, deep.split('/')[0]!))).rejects.toThrow();
    expect(enqueuer.result.queued.map((id) => path.relative(folder, ledger.get(id)!.targetPath))).toEqual([path.join('shallow', 'shallow_one.fts')]);
  });

  it('whose path is exactly as long as the system allows is queued; a byte more (with its temporary name) is refused', async () => {
    // The temporary name `.<name>.<8 hex>.part` is 15 bytes longer than the name: that is the longest path written.
    const name = 'edge_one.fts';
    const room = LONGEST_PATH_BYTES - utf8Length(folder) - 1 - 1 - utf8Length(temporaryNameFor(name));
    const place = (length: number): string =>
      Array.from({ length: Math.ceil(length / 101) }, (_, index) => 'e'.repeat(Math.min(100, length - index * 101))).join('/');
    expect(utf8Length(path.join(folder, place(room), temporaryNameFor(name)))).toBe(LONGEST_PATH_BYTES);
    const fits = await ListingEnqueuer.open(host(), folder, 'skip', () => place(room));
    await fits.add([entry(name)]);
    expect(fits.result.rejected).toEqual([]);
    expect(fits.result.queued).toHaveLength(1);
    const over = await ListingEnqueuer.open(host(), folder, 'skip', () => place(room + 1));
    await over.add([entry('edge_two.fts')]);
    expect(over.result.rejected).toEqual([
      {
        filename: 'edge_two.fts',
        reason: `its path would be ${(LONGEST_PATH_BYTES + 1).toLocaleString('en-US')} bytes, more than the system allows (${LONGEST_PATH_BYTES.toLocaleString('en-US')}); choose a shorter folder or layout`,
      },
    ]);
  });

  it('inside the folder (or the folder itself) is where the file goes', async () => {
    for (const [place, name] of [
      ['kcor/2025', 'inside_a.fts'],
      ['', 'inside_b.fts'],
      ['a/../b', 'inside_c.fts'],
    ] as const) {
      const enqueuer = await ListingEnqueuer.open(host(), folder, 'skip', () => place);
      await enqueuer.add([entry(name)]);
      expect(enqueuer.result.rejected).toEqual([]);
      expect(ledger.get(enqueuer.result.queued[0]!)!.targetPath).toBe(path.join(folder, place, name));
    }
  });
});

describe('a listed download address', () => {
  const evil = 'http://evil.example/v1/download?filename=a.fts.gz';

  it('on another server is refused and reported, saying how to allow it', async () => {
    const client = new MlsoClient({ baseUrl: API }, { otherServersAdvice: 'add --allow-other-hosts' });
    expect(await take('a.fts', client, evil)).toEqual({
      refused:
        "The file's address is on another server (evil.example); MLSO Downloader only downloads from api.mlso.ucar.edu. To allow it, add --allow-other-hosts.",
    });
  });

  it('on another server is queued when other servers are allowed', async () => {
    const client = new MlsoClient({ baseUrl: API, allowOtherHosts: true });
    expect(await take('b.fts', client, evil)).toEqual({ targetPath: path.join(folder, 'b.fts') });
  });

  it.each([
    ['the same host on another port', 'http://api.mlso.ucar.edu:8080/v1/download', 'refused'],
    ['the same host over https (an upgrade)', 'https://api.mlso.ucar.edu/v1/download', 'queued'],
    ['a relative address', '/v1/download?filename=c.fts', 'queued'],
    ['a host name in capitals', 'HTTP://API.MLSO.UCAR.EDU/v1/download', 'queued'],
    ['a host that only begins like the API', 'http://api.mlso.ucar.edu.evil.example/v1/download', 'refused'],
    ['user information before another host', 'http://api.mlso.ucar.edu@evil.example/v1/download', 'refused'],
    ['a file: address', 'file:///etc/passwd', 'refused'],
    ['a scheme-relative address to another host', '//evil.example/v1/download', 'refused'],
    ['no address at all', 'http://[', 'refused'],
  ])('%s (%s) is %s', async (_what, url, expected) => {
    const outcome = await take(`address-${expected}-${Math.random().toString(36).slice(2)}.fts`, new MlsoClient({ baseUrl: API }), url);
    expect('refused' in outcome ? 'refused' : 'queued').toBe(expected);
  });

  it('over plain http is refused when the API is reached over https: the session would travel unencrypted', async () => {
    const client = new MlsoClient({ baseUrl: 'https://api.mlso.ucar.edu' }, { otherServersAdvice: 'add --allow-other-hosts' });
    expect(await take('d.fts', client, 'http://api.mlso.ucar.edu/v1/download')).toEqual({
      refused:
        "The file's address is on another server (http://api.mlso.ucar.edu); MLSO Downloader only downloads from https://api.mlso.ucar.edu. To allow it, add --allow-other-hosts.",
    });
  });
});
