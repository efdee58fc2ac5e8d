// Property tests of campaign folder layouts: any template typed is refused with a short, printable message or
// normalised to one that checks the same again; and whatever the server lists (an observing plan of "..", a
// device name, a megabyte of text), a checked template places the file in plain folder names inside the campaign
// folder, on POSIX and Windows alike.
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LAYOUT_PLACEHOLDERS, checkLayout, layoutFolderOf } from '../../src-shared/campaigns/folder-layout';
import { checkSafeFilename, toSafeName, utf8Length } from '../../src-shared/files/safe-filename';

const RUNS = { numRuns: 300 };
// eslint-disable-next-line no-control-regex -- control characters are what a message must not carry
const CONTROL = /[\u0000-\u001f\u007f]/;

const pathPiece = fc.constantFrom('/', '\\', '//', '.', '..', ' ', 'C:', ':', '{', '}', '{}', '{yyyy', 'a', '\u0000', '~', 'CON', 'nul.txt', '😀');
const placeholder = fc.constantFrom(...LAYOUT_PLACEHOLDERS).map((name) => `{${name}}`);
const template = fc.oneof(
  fc.array(fc.oneof(pathPiece, placeholder), { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.array(fc.oneof(placeholder, fc.string({ unit: 'grapheme', maxLength: 6 })), { maxLength: 6 }).map((pieces) => pieces.join('/')),
  fc.string({ unit: 'binary', maxLength: 600 }),
);

/** Text the server may send in any field a layout uses. */
const serverText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '.',
    '..',
    '...',
    'CON',
    'con.cbk',
    'LPT1',
    'aux ',
    'x.',
    'a/../b',
    '..\\..',
    'C:\\x',
    '\u202eevil',
    '\ud800',
    'synoptic-original-lines.cbk',
    '789',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom('é', '😀', '.', 'x').chain((char) => fc.integer({ min: 1, max: 400 }).map((count) => char.repeat(count))),
);
const entry = fc.record({
  instrument: serverText,
  product: serverText,
  'date-obs': fc.oneof(fc.constant('2025-03-24T21:03:04'), fc.constant('../../-..-..'), serverText),
  'wave-region': fc.oneof(serverText, fc.jsonValue({ maxDepth: 2 })),
  'obs-plan': fc.oneof(serverText, fc.jsonValue({ maxDepth: 2 })),
});

describe('a folder layout, whatever is typed', () => {
  it('is refused with a short, printable message, or normalised into one that checks the same again', () => {
    fc.assert(
      fc.property(template, (raw) => {
        const checked = checkLayout(raw);
        if (!checked.ok) {
          expect(checked.message.length).toBeLessThanOrEqual(900);
          expect(checked.message).not.toMatch(CONTROL);
          return;
        }
        expect(checkLayout(checked.template)).toEqual(checked);
        if (checked.template === '') return;
        for (const folder of checked.template.split('/')) {
          expect(folder).not.toBe('');
          expect(['.', '..']).not.toContain(folder.trim());
          expect(folder).not.toMatch(/[\\:]/);
        }
      }),
      RUNS,
    );
  });
});

describe('a file placed by a checked layout, whatever the server listed', () => {
  it('lands in plain folder names inside the campaign folder', () => {
    fc.assert(
      fc.property(template, entry, (raw, listed) => {
        const checked = checkLayout(raw);
        fc.pre(checked.ok);
        if (!checked.ok) return;
        const placed = layoutFolderOf(checked.template, listed);
        if (checked.template === '') {
          expect(placed).toBe('');
          return;
        }
        for (const folder of placed.split('/')) expect(checkSafeFilename(folder), JSON.stringify(folder)).toEqual({ ok: true });
        for (const [paths, root] of [
          [path.posix, '/campaign'],
          [path.win32, 'C:\\campaign'],
        ] as const) {
          const relative = paths.relative(root, paths.resolve(root, placed));
          expect(relative.startsWith('..') || paths.isAbsolute(relative)).toBe(false);
          expect(relative.split(paths.sep)).toHaveLength(placed.split('/').length);
        }
      }),
      { ...RUNS, endOnFailure: true },
    );
  });

  it.each([
    ['{obs_plan}', 'CON', '_CON'],
    ['{obs_plan}', 'con.cbk', '_con.cbk'],
    ['{obs_plan}', 'x. ', 'x'],
    ['{obs_plan}', '.hidden', '_hidden'],
    ['{obs_plan}', '..', '_'],
    ['{obs_plan}/{yyyy}', 'a/../b', 'a_.._b/2025'],
  ])('places %s with an observing plan of %j in %j', (layout, plan, expected) => {
    expect(layoutFolderOf(layout, { instrument: 'ucomp', product: 'l2', 'date-obs': '2025-03-24T21:03:04', 'obs-plan': plan })).toBe(expected);
  });

  it('keeps a long folder name within what a file system takes, cut between characters', () => {
    const placed = layoutFolderOf('{obs_plan}', { instrument: 'ucomp', product: 'l2', 'date-obs': '2025-03-24', 'obs-plan': '😀'.repeat(200) });
    expect(checkSafeFilename(placed)).toEqual({ ok: true });
    expect(Buffer.from(placed).toString()).toBe(placed);
  });
});

describe('any text made into a folder name', () => {
  it('is a name the file-name check accepts, within the bytes asked for', () => {
    fc.assert(
      fc.property(
        fc.oneof(serverText, fc.string({ unit: 'binary', maxLength: 300 }), fc.constant('nul.' + 'x'.repeat(300))),
        fc.integer({ min: 8, max: 255 }),
        (text, maxBytes) => {
          const name = toSafeName(text, maxBytes);
          expect(checkSafeFilename(name), JSON.stringify(name)).toEqual({ ok: true });
          expect(utf8Length(name)).toBeLessThanOrEqual(maxBytes);
        },
      ),
      RUNS,
    );
  });
});
