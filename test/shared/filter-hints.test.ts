// The Carrington rotation hint knows what the chosen instrument's data cover: the rotations of its first and last
// observations, rather than the rotation now (which can be long after the data end).
import { describe, expect, it } from 'vitest';
import { instrumentCoverage } from '../../src-shared/coverage/data-coverage';
import { filterHint } from '../../src-shared/filters/filter-hints';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const KCOR = instrumentCoverage({ 'start-date': '2013-09-30T18:57:54', 'end-date': '2025-03-24T21:04:20' });

describe('the Carrington rotation hint with the data’s coverage', () => {
  it('gives the rotations the data cover while the field is empty or not a rotation', () => {
    expect(filterHint('cr', '', NOW, KCOR)).toBe("2142 to 2295 (the data's span)");
    expect(filterHint('cr', '22x', NOW, KCOR)).toBe("2142 to 2295 (the data's span)");
    // Without coverage (no instrument chosen yet): the rotation now, as before.
    expect(filterHint('cr', '', NOW)).toBe('e.g. 2311 (the rotation now)');
  });

  it('gives one rotation when the data fit inside it', () => {
    const oneDay = instrumentCoverage({ 'start-date': '2025-03-20T17:50:00', 'end-date': '2025-03-24T21:04:20' });
    expect(filterHint('cr', '', NOW, oneDay)).toBe("2295 (the data's span)");
  });

  it('gives a typed rotation’s dates, and says so when the data do not reach it', () => {
    expect(filterHint('cr', '2295', NOW, KCOR)).toBe('2025-03-02 12:00 – 2025-03-29 19:28 UT');
    expect(filterHint('cr', '2142', NOW, KCOR)).toBe('2013-09-28 03:17 – 2013-10-25 10:13 UT');
    expect(filterHint('cr', '2296', NOW, KCOR)).toBe('2025-03-29 19:28 – 2025-04-26 01:57 UT, outside the data (2142 to 2295)');
    expect(filterHint('cr', '2141', NOW, KCOR)).toBe('2013-08-31 20:52 – 2013-09-28 03:17 UT, outside the data (2142 to 2295)');
  });
});

describe('instrumentCoverage', () => {
  it('reads the instrument’s first and last observation; nothing when they cannot be read', () => {
    expect(KCOR).toEqual({ startMs: Date.parse('2013-09-30T18:57:54Z'), endMs: Date.parse('2025-03-24T21:04:20Z') });
    expect(instrumentCoverage(null)).toBeNull();
    expect(instrumentCoverage({ 'start-date': 'soon', 'end-date': '2025-03-24T21:04:20' })).toBeNull();
    expect(instrumentCoverage({ 'start-date': '2025-03-25', 'end-date': '2025-03-24' })).toBeNull();
  });
});
