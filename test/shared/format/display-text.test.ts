// Text from the server made safe to show on a terminal: controls escaped, long names shortened.
import { describe, expect, it } from 'vitest';
import { displayName, escapeControlCharacters, shortenForDisplay } from '../../../src-shared/format/display-text';

describe('escapeControlCharacters', () => {
  it.each([
    ['ESC', 'a\u001b[2Jb', 'a\\u001b[2Jb'],
    ['BEL', 'a\u0007b', 'a\\u0007b'],
    ['NUL', 'a\u0000b', 'a\\u0000b'],
    ['DEL', 'a\u007fb', 'a\\u007fb'],
    ['C1 NEL and CSI', 'a\u0085b\u009b2J', 'a\\u0085b\\u009b2J'],
    ['right-to-left override', 'evil\u202egnp.fts', 'evil\\u202egnp.fts'],
    ['bidi isolates and marks', '\u2066x\u2069\u200f\u061c', '\\u2066x\\u2069\\u200f\\u061c'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a\\u2028b\\u2029'],
    ['newline, tab and carriage return in a field', 'a\nb\tc\rd', 'a\\u000ab\\u0009c\\u000dd'],
  ])('shows %s escaped', (_what, text, shown) => {
    expect(escapeControlCharacters(text)).toBe(shown);
  });

  it('keeps the newlines of our own layout when asked, and escapes every other control', () => {
    expect(escapeControlCharacters('line one\u001b\nline\ttwo\r\n', { keepNewlines: true })).toBe('line one\\u001b\nline\\u0009two\\u000d\n');
  });

  it('leaves ordinary text alone, accents, other scripts and emoji included', () => {
    const text = 'Sonnenkorona é 日冕 ☀️ 👩‍🔬 20250324_210304_kcor_l2_pb.fts';
    expect(escapeControlCharacters(text)).toBe(text);
  });

  it('changes nothing the second time (escaped text is plain text)', () => {
    const once = escapeControlCharacters('x\u001by\u202ez');
    expect(escapeControlCharacters(once)).toBe(once);
  });

  it('keeps JSON text valid and its strings exact (the escapes are JSON escapes)', () => {
    const value = { filename: 'a\u202eb\u0085c\u007fd\\\u009b', files: [{ note: 'x\u2066y' }] };
    const escaped = escapeControlCharacters(JSON.stringify(value, null, 2), { keepNewlines: true });
    expect(escaped).not.toMatch(/[\u007f-\u009f\u202e\u2066]/);
    expect(JSON.parse(escaped)).toEqual(value);
  });
});

describe('shortenForDisplay', () => {
  it('keeps the first 60 and last 20 characters of an over-long name', () => {
    const name = `${'a'.repeat(60)}${'b'.repeat(4920)}${'c'.repeat(20)}`;
    expect(shortenForDisplay(name)).toBe(`${'a'.repeat(60)}…${'c'.repeat(20)}`);
  });

  it('leaves a name of up to 81 characters whole', () => {
    const name = 'n'.repeat(81);
    expect(shortenForDisplay(name)).toBe(name);
    expect(shortenForDisplay(`${name}x`)).toHaveLength(81);
  });

  it('never cuts a character in half (counts code points, not UTF-16 units)', () => {
    const name = '🌞'.repeat(100);
    expect(shortenForDisplay(name)).toBe(`${'🌞'.repeat(60)}…${'🌞'.repeat(20)}`);
  });
});

describe('displayName', () => {
  it('shortens first, then escapes, so no escape is cut in two', () => {
    const name = `${'\u001b'.repeat(70)}${'z'.repeat(4000)}`;
    const shown = displayName(name);
    expect(shown).toBe(`${'\\u001b'.repeat(60)}…${'z'.repeat(20)}`);
  });
});
