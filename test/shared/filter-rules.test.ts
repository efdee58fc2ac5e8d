import { describe, expect, it } from 'vitest';
import { checkFilterValue, checkFilters, WAVE_REGIONS } from '../../src-shared/filters/filter-rules';
import { parseUtTimestamp } from '../../src-shared/filters/ut-timestamp';
import { parseEvery } from '../../src-shared/filters/every';

describe('dates', () => {
  it.each([
    ['2025-03-24', '2025-03-24'],
    ['2025-03-24T21:03:00', '2025-03-24T21:03:00'],
    ['2025-3-24', '2025-03-24'],
    ['2025-3-4T1:2:3', '2025-03-04T01:02:03'],
    [' 2024-02-29 ', '2024-02-29'],
  ])('accepts %s and sends %s', (input, sent) => {
    expect(checkFilterValue('start-date', input)).toEqual({ ok: true, value: sent });
  });

  it.each(['2025/03/24', '24-03-2025', '2025-03-24T21:03', 'yesterday', '2025-03-24T21:03:00+02:00', ''])('refuses the form %j', (input) => {
    const result = checkFilterValue('end-date', input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS');
  });

  it.each(['2025-02-29', '2025-13-01', '2025-04-31', '2025-03-24T24:00:00', '2025-03-24T12:60:00', '2025-03-24T12:00:60'])(
    'refuses %s as not a real calendar instant',
    (input) => {
      const result = checkFilterValue('start-date', input);
      expect(result).toMatchObject({ ok: false });
      if (!result.ok) expect(result.message).toMatch(/real calendar/);
    },
  );

  it.each(['2025-02-30', '2023-02-29', '1900-02-29', '2100-02-29', '0099-02-29'])('refuses %s: no such day', (input) => {
    expect(parseUtTimestamp(input)).toEqual({ ok: false, reason: 'calendar' });
  });

  it.each([
    ['2000-02-29', '2000-02-29T00:00:00'],
    ['2024-02-29T23:59:59', '2024-02-29T23:59:59'],
    // Years before 100 are years of the first century, not 1900 + year as Date.UTC takes them.
    ['0099-12-31', '0099-12-31T00:00:00'],
    ['0004-02-29T12:00:00', '0004-02-29T12:00:00'],
  ])('accepts the real day %s, at %s UT', (input, instant) => {
    const parsed = parseUtTimestamp(input);
    expect(parsed.ok && new Date(parsed.value.epochMs).toISOString().slice(0, 19)).toBe(instant);
  });

  it('keeps epoch order in UT', () => {
    const a = parseUtTimestamp('2025-03-24');
    const b = parseUtTimestamp('2025-03-24T00:00:01');
    expect(a.ok && b.ok && b.value.epochMs - a.value.epochMs).toBe(1000);
    expect(a.ok && a.value.epochMs).toBe(Date.UTC(2025, 2, 24));
  });

  it('refuses a start after the end, naming both', () => {
    const result = checkFilters({ 'start-date': '2025-03-25', 'end-date': '2025-03-24T23:59:59' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]!.message).toMatch(/2025-03-25 is after end date 2025-03-24T23:59:59/);
    expect(checkFilters({ 'start-date': '2025-03-24', 'end-date': '2025-03-24' }).ok).toBe(true);
  });
});

describe('Carrington rotation', () => {
  it.each([
    ['2295', '2295'],
    [2296, '2296'],
    ['1', '1'],
    ['007', '7'],
  ])('accepts %j', (input, sent) => {
    expect(checkFilterValue('cr', input)).toEqual({ ok: true, value: sent });
  });
  it.each(['0', '-3', '2295.5', 'abc', '2e3'])('refuses %j', (input) => {
    const result = checkFilterValue('cr', input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/positive whole number/);
  });
});

describe('every', () => {
  it.each([
    ['2hours', '2hours'],
    ['1day', '1day'],
    ['12HOURS', '12hours'],
    ['3 minutes', '3minutes'],
    ['1second', '1second'],
    ['2weeks', '2weeks'],
    ['1month', '1month'],
    ['1quarters', '1quarters'],
    ['10year', '10year'],
  ])('accepts %s as %s', (input, sent) => {
    expect(checkFilterValue('every', input)).toEqual({ ok: true, value: sent });
  });
  it.each(['hours', '2', '0hours', '2fortnights', '1.5hours', '-1day', '2hourss'])('refuses %j, naming the units', (input) => {
    const result = checkFilterValue('every', input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/second, minute, hour, day, week, month, quarter or year/);
  });
  it('parses count and unit', () => {
    expect(parseEvery('15minutes')).toEqual({ count: 15, unit: 'minute', text: '15minutes' });
  });
});

describe('wave region and observing plan', () => {
  it.each([...WAVE_REGIONS])('accepts wave region %s', (region) => {
    expect(checkFilterValue('wave-region', region)).toEqual({ ok: true, value: region });
  });
  it.each(['1075', '789nm', 'all'])('refuses wave region %s, listing the allowed ones', (region) => {
    const result = checkFilterValue('wave-region', region);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('637, 706, 789, 1074, 1079');
  });
  it('refuses an empty observing plan but ignores an unset one', () => {
    expect(checkFilterValue('obs-plan', '  ').ok).toBe(false);
    expect(checkFilters({ 'obs-plan': '' })).toEqual({ ok: true, query: {} });
    expect(checkFilterValue('obs-plan', 'waves')).toEqual({ ok: true, value: 'waves' });
  });
});

describe('the product metadata decides which filters are allowed', () => {
  const kcorPb = ['start-date', 'end-date', 'cr', 'every'];
  it('refuses a filter the product does not list, naming those it does', () => {
    const result = checkFilters({ 'wave-region': '789', every: '1hour' }, kcorPb, 'kcor pb');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]!.message).toBe('kcor pb does not accept the wave-region filter; it accepts start-date, end-date, cr, every.');
    }
  });
  it('collects every problem at once and sends only normalised values', () => {
    const bad = checkFilters({ cr: 'x', every: 'often', 'start-date': '2025-3-4' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems.map((p) => p.filter)).toEqual(['cr', 'every']);
    expect(checkFilters({ 'start-date': '2025-3-4', every: '2 Hours', cr: ' 2295 ' }, kcorPb)).toEqual({
      ok: true,
      query: { 'start-date': '2025-03-04', every: '2hours', cr: '2295' },
    });
  });
});
