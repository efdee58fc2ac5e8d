// Instants to the minute, in UT whatever the computer's time zone.
import { describe, expect, it } from 'vitest';
import { nearestUtMinute, utMinute } from '../../../src-shared/format/ut-minute';

describe('utMinute', () => {
  it('writes an instant as YYYY-MM-DD HH:MM in UT, seconds dropped', () => {
    expect(utMinute(Date.parse('2025-03-02T12:05:37.551Z'))).toBe('2025-03-02 12:05');
    expect(utMinute(Date.parse('2025-03-24T23:59:59+02:00'))).toBe('2025-03-24 21:59');
    expect(utMinute(0)).toBe('1970-01-01 00:00');
  });
});

describe('nearestUtMinute', () => {
  it('rounds to the nearest minute, half a minute up', () => {
    expect(nearestUtMinute(Date.parse('2025-03-02T11:59:56.725Z'))).toBe('2025-03-02 12:00');
    expect(nearestUtMinute(Date.parse('2025-03-02T12:05:29.999Z'))).toBe('2025-03-02 12:05');
    expect(nearestUtMinute(Date.parse('2025-03-02T12:05:30.000Z'))).toBe('2025-03-02 12:06');
  });

  it('rolls over the hour, the day, the month and the year', () => {
    expect(nearestUtMinute(Date.parse('1956-05-22T23:59:54.254Z'))).toBe('1956-05-23 00:00');
    expect(nearestUtMinute(Date.parse('2024-02-29T23:59:45Z'))).toBe('2024-03-01 00:00');
    expect(nearestUtMinute(Date.parse('2025-12-31T23:59:31Z'))).toBe('2026-01-01 00:00');
  });

  it('rounds instants before 1970 the same way (negative epoch milliseconds)', () => {
    expect(nearestUtMinute(Date.parse('1853-11-09T21:51:18.538Z'))).toBe('1853-11-09 21:51');
    expect(nearestUtMinute(Date.parse('1853-11-09T21:51:48Z'))).toBe('1853-11-09 21:52');
  });
});
