// Instants to the minute, in UT whatever the computer's time zone.
import { describe, expect, it } from 'vitest';
import { utMinute } from '../../../src-shared/format/ut-minute';

describe('utMinute', () => {
  it('writes an instant as YYYY-MM-DD HH:MM in UT, seconds dropped', () => {
    expect(utMinute(Date.parse('2025-03-02T12:05:37.551Z'))).toBe('2025-03-02 12:05');
    expect(utMinute(Date.parse('2025-03-24T23:59:59+02:00'))).toBe('2025-03-24 21:59');
    expect(utMinute(0)).toBe('1970-01-01 00:00');
  });
});
