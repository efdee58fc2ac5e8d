// The one filter table: the rules' names and labels come from it, its flags cannot collide, and every filter in it
// has a hint, a pure function of the value and the current instant.
import { describe, expect, it } from 'vitest';
import { carringtonRotationAt } from '../../src-science/astro/carrington';
import { FILTER_HINTS, filterHint } from '../../src-shared/filters/filter-hints';
import { FILTER_LABELS, FILTER_NAMES, checkFilterValue } from '../../src-shared/filters/filter-rules';
import { FILTER_DEFINITIONS, FILTERS_BY_NAME, WAVE_REGIONS } from '../../src-shared/filters/filter-table';

const NOW = Date.parse('2025-03-24T12:00:00Z');

describe('the filter table', () => {
  it("is where the rules' names and labels come from, in the table's order", () => {
    expect(FILTER_NAMES).toEqual(FILTER_DEFINITIONS.map((filter) => filter.name));
    expect(FILTER_NAMES).toEqual(['start-date', 'end-date', 'cr', 'every', 'wave-region', 'obs-plan']);
    for (const filter of FILTER_DEFINITIONS) {
      expect(FILTER_LABELS[filter.name]).toBe(filter.label);
      expect(FILTERS_BY_NAME[filter.name]).toBe(filter);
    }
  });

  it('the rules judge every filter of the table, naming it by its label', () => {
    // Blank is a value no filter accepts when checked on its own.
    for (const name of FILTER_NAMES) {
      const checked = checkFilterValue(name, ' ');
      expect(checked.ok).toBe(false);
      if (!checked.ok) expect(checked.message.startsWith(FILTER_LABELS[name])).toBe(true);
    }
  });

  it('gives each filter its own flags, short letters and help position', () => {
    const longs = FILTER_DEFINITIONS.flatMap((filter) => [filter.option.long, ...(filter.option.hiddenAliases ?? [])]);
    const shorts = FILTER_DEFINITIONS.flatMap((filter) => (filter.option.short ? [filter.option.short] : []));
    const positions = FILTER_DEFINITIONS.map((filter) => filter.option.helpOrder);
    expect(new Set(longs).size).toBe(longs.length);
    expect(new Set(shorts).size).toBe(shorts.length);
    expect(new Set(positions).size).toBe(positions.length);
    for (const long of longs) expect(long).toMatch(/^[a-z][a-z-]*[a-z]$/);
    for (const short of shorts) expect(short).toMatch(/^[a-z]$/);
  });

  it('offers the wave regions the rules accept, and "Any" for none', () => {
    const field = FILTERS_BY_NAME['wave-region'].field;
    expect(field).toMatchObject({ kind: 'select', emptyLabel: 'Any' });
    if (field.kind !== 'select') return;
    expect(field.choices.map((choice) => choice.value)).toEqual([...WAVE_REGIONS]);
    expect(field.choices.map((choice) => choice.label)).toEqual(WAVE_REGIONS.map((region) => `${region} nm`));
  });
});

describe('filter hints', () => {
  it('has one for every filter of the table', () => {
    expect(Object.keys(FILTER_HINTS).sort()).toEqual([...FILTER_NAMES].sort());
    for (const name of FILTER_NAMES) expect(filterHint(name, '', NOW)).not.toBe('');
  });

  it('says which form a date takes, and that it is UT', () => {
    expect(filterHint('start-date', '', NOW)).toBe('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UT');
    expect(filterHint('end-date', '2025-03-24', NOW)).toBe('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS, UT');
  });

  it('shows a Carrington rotation as its UT span, and the rotation in progress "now" as the example', () => {
    expect(filterHint('cr', '2295', NOW)).toBe('2025-03-02 12:00 – 2025-03-29 19:28 UT');
    expect(filterHint('cr', ' 2295 ', 0)).toBe('2025-03-02 12:00 – 2025-03-29 19:28 UT');
    expect(filterHint('cr', '', NOW)).toBe('e.g. 2295 (the rotation now)');
    expect(filterHint('cr', '22x', NOW)).toBe('e.g. 2295 (the rotation now)');
    // "now" is the caller's: the example follows it.
    const later = Date.parse('2026-01-01T00:00:00Z');
    expect(filterHint('cr', '', later)).toBe(`e.g. ${carringtonRotationAt(later)} (the rotation now)`);
    expect(carringtonRotationAt(later)).toBeGreaterThan(2295);
  });

  it('says what Every selects: the first file of each clock period, so neighbours can be minutes apart, with an example', () => {
    const example = 'so two can be minutes apart: 2hours on 2025-03-21 gave 17:55:59, 18:00:00 and 20:00:03 UT';
    expect(filterHint('every', '2hours', NOW)).toBe(`The first file of each period of 2 hours on the UT clock, ${example}`);
    expect(filterHint('every', '1 day', NOW)).toBe(`The first file of each period of 1 day on the UT clock, ${example}`);
    expect(filterHint('every', '1500minutes', NOW)).toBe(`The first file of each period of 1,500 minutes on the UT clock, ${example}`);
    expect(filterHint('every', 'often', NOW)).toBe('e.g. 2hours, 30minutes, 1day');
  });

  it('explains the wave region and gives observing plans as examples', () => {
    expect(filterHint('wave-region', '', NOW)).toBe('Centre wavelength in nm');
    expect(filterHint('obs-plan', '', NOW)).toBe('e.g. synoptic or waves');
  });
});
