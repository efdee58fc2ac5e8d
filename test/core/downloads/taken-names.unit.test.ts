// The enqueuer's compact memory of names (taken-names.ts) against a plain Map: the same answers for names of every
// kind, through the table's growth, with values changed in place.
import { describe, expect, it } from 'vitest';
import { TakenNames } from '../../../src-main/core/downloads/taken-names';

describe('TakenNames', () => {
  it('answers as a Map would for 50,000 names, new and seen, ASCII and not, through every growth', () => {
    const taken = new TakenNames();
    const map = new Map<string, number>();
    const names = Array.from({ length: 50_000 }, (_, i) =>
      i % 7 === 0 ? `Ünïcode_${i}_\u{1F600}.fts` : `20250324_${String(i).padStart(6, '0')}_kcor_l2_pb.fts.gz`,
    );
    for (const [i, name] of names.entries()) {
      if (i % 3 === 0) continue;
      taken.set(name, i % 5 === 0 ? -1 : i);
      map.set(name, i % 5 === 0 ? -1 : i);
    }
    for (const name of ['', 'a', 'A', 'x'.repeat(4_000)]) {
      taken.set(name, name.length);
      map.set(name, name.length);
    }
    expect(taken.size).toBe(map.size);
    for (const name of [...names, '', 'a', 'A', 'b', 'x'.repeat(4_000), 'x'.repeat(3_999)]) {
      expect(taken.get(name)).toBe(map.get(name));
      expect(taken.has(name)).toBe(map.has(name));
    }
  });

  it('keeps names that end a chunk, names of every length up to far beyond one, and finds each again', () => {
    const taken = new TakenNames();
    const map = new Map<string, number>();
    // Lengths that leave every remainder at a chunk's end (a name never spans two), and names longer than a chunk.
    const names: string[] = [];
    for (let i = 0; names.length < 6_000; i += 1) names.push(`${i}_`.padEnd(1 + ((i * 7919) % 1_500), 'k'));
    names.push('y'.repeat(21_845), 'y'.repeat(21_846), 'z'.repeat(70_000), 'é'.repeat(40_000), '\u{1F600}'.repeat(20_000));
    for (const [i, name] of names.entries()) {
      taken.set(name, i);
      map.set(name, i);
    }
    expect(taken.size).toBe(map.size);
    for (const name of [...names, 'y'.repeat(21_844), 'z'.repeat(69_999), '5_']) expect(taken.get(name)).toBe(map.get(name));
  });

  it('tells apart names that differ only in a lone surrogate (UTF-8 would make both the same replacement character)', () => {
    const taken = new TakenNames();
    taken.set('a\uD800.fts', 1);
    expect(taken.get('a\uD801.fts')).toBeUndefined();
    expect(taken.get('a\uFFFD.fts')).toBeUndefined();
    taken.set('a\uD801.fts', 2);
    taken.set('\uDC00b.fts', 3);
    expect([taken.get('a\uD800.fts'), taken.get('a\uD801.fts'), taken.get('\uDC00b.fts'), taken.get('\uD83D\uDE00.fts')]).toEqual([1, 2, 3, undefined]);
    expect(taken.size).toBe(3);
  });

  it("changes a name's value in place, without a second entry", () => {
    const taken = new TakenNames();
    taken.set('a.fts', 1);
    taken.set('a.fts', 6);
    expect(taken.get('a.fts')).toBe(6);
    expect(taken.size).toBe(1);
  });

  it('takes the empty name first, before any chunk is made', () => {
    const taken = new TakenNames();
    taken.set('', 4);
    taken.set('b.fts', 5);
    expect([taken.get(''), taken.get('b.fts'), taken.get('c.fts'), taken.size]).toEqual([4, 5, undefined, 2]);
  });
});
