import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepBothName, numberedName } from '../../../src-main/core/downloads/existing-files';
import { checkSafeFilename, MAX_NAME_BYTES, utf8Length } from '../../../src-shared/files/safe-filename';
import { temporaryFolder } from '../../helpers/fixtures';

describe('names for a second copy (keep both)', () => {
  it('numbers the stem and keeps the extension', () => {
    expect(numberedName('kcor_l2.fts', 1)).toBe('kcor_l2 (1).fts');
    expect(numberedName('no-extension', 12)).toBe('no-extension (12)');
  });

  it('skips names on disk and names promised to other jobs', async () => {
    const folder = await temporaryFolder();
    await writeFile(path.join(folder, 'a (1).fts'), '');
    const promised = new Set([path.join(folder, 'a (2).fts')]);
    expect(await keepBothName(folder, 'a.fts', (target) => promised.has(target))).toBe('a (3).fts');
  });

  it('cuts the stem of a name near the limit so the copy still fits in 255 bytes', () => {
    const longest = `${'x'.repeat(MAX_NAME_BYTES - 4)}.fts`;
    expect(numberedName(longest, 1)).toBe(`${'x'.repeat(MAX_NAME_BYTES - 8)} (1).fts`);
    // Cut between characters, never inside one: 'é' is two bytes.
    const accented = `${'é'.repeat(125)}.fts`;
    expect(utf8Length(numberedName(accented, 7))).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(numberedName(accented, 7)).toMatch(/^é+ \(7\)\.fts$/);
  });

  it('drops an extension too long to keep beside the number, cutting the whole name instead', () => {
    const extension = `.${'e'.repeat(250)}`; // 251 bytes: with " (1)" it would just fit, with " (10)" not
    expect(numberedName(`a${extension}`, 1)).toBe(`a${extension}`.slice(0, MAX_NAME_BYTES - 4) + ' (1)');
    expect(utf8Length(numberedName(`a${extension}`, 1))).toBe(MAX_NAME_BYTES);
    expect(numberedName(`a${extension}`, 10)).toBe(`a${extension}`.slice(0, MAX_NAME_BYTES - 5) + ' (10)');
  });

  it('any safe name gives a safe copy name within the limit, different from the original', () => {
    const safeName = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 300 }).filter((name) => checkSafeFilename(name).ok);
    fc.assert(
      fc.property(safeName, fc.integer({ min: 1, max: 1_000_000 }), (name, n) => {
        const copy = numberedName(name, n);
        expect(utf8Length(copy)).toBeLessThanOrEqual(MAX_NAME_BYTES);
        expect(checkSafeFilename(copy)).toEqual({ ok: true });
        expect(copy).not.toBe(name);
        expect(copy).toContain(` (${n})`);
      }),
      { numRuns: 2_000 },
    );
  });
});
