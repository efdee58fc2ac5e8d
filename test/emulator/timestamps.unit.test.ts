import { describe, expect, it } from 'vitest';
import { parseQueryDate } from '../../src-main/emulator/timestamps';

const utc = (iso: string): number => Date.parse(`${iso}Z`) / 1000;

describe('parseQueryDate (Python strptime forms)', () => {
  it('accepts both documented forms and their one-digit variants', () => {
    expect(parseQueryDate('2025-01-01T10:30:00')).toBe(utc('2025-01-01T10:30:00'));
    expect(parseQueryDate('2025-01-01')).toBe(utc('2025-01-01T00:00:00'));
    expect(parseQueryDate('2025-3-24')).toBe(utc('2025-03-24T00:00:00'));
    expect(parseQueryDate('2025-3-4T1:2:3')).toBe(utc('2025-03-04T01:02:03'));
    expect(parseQueryDate('2025-03- 4')).toBe(utc('2025-03-04T00:00:00')); // %d takes a space-padded digit
    expect(parseQueryDate('2025-03-24t21:03:00')).toBe(utc('2025-03-24T21:03:00'));
    expect(parseQueryDate('2024-02-29')).toBe(utc('2024-02-29T00:00:00'));
  });

  it('refuses what strptime refuses', () => {
    for (const bad of [
      '2025-02-29',
      '2025-04-31',
      '0000-01-01',
      '2025-00-10',
      '2025-1-32',
      '2025-03-24T24:00:00',
      '2025-03-24T23:60:00',
      '2025-03-24T23:59:60',
      '2025-03-24T23:59',
      '2025-03-24 23:59:59',
      '20250324',
      '2025-03-24T23:59:59Z',
      '2025-03-24T23:59:59.5',
      ' 2025-03-24',
      '2025-03-24 ',
      '+2025-03-24',
      '12025-03-24',
      '',
    ]) {
      expect(parseQueryDate(bad), bad).toBeNull();
    }
  });
});
