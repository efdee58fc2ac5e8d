// Counts for people, shared by the window and the filter hints.
import { describe, expect, it } from 'vitest';
import { formatCount, plural } from '../../../src-shared/format/counts';

describe('counts', () => {
  it('separates thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
  });

  it('makes the noun agree with the count', () => {
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(1500, 'minute')).toBe('1,500 minutes');
    expect(plural(2, 'query', 'queries')).toBe('2 queries');
  });
});
