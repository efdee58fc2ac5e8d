// Counts for people, shared by the window and the filter hints.
import { describe, expect, it, vi } from 'vitest';
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

  it('loads without making a number format (the first costs about 10 ms of ICU), and makes one on first use', async () => {
    vi.resetModules();
    const original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = class extends original {
      constructor(...args: ConstructorParameters<typeof original>) {
        super(...args);
        made += 1;
      }
    } as typeof Intl.NumberFormat;
    try {
      const counts = await import('../../../src-shared/format/counts');
      expect(made).toBe(0);
      expect(counts.formatCount(1234)).toBe('1,234');
      expect(counts.plural(2000, 'file')).toBe('2,000 files');
      expect(made).toBe(1);
    } finally {
      Intl.NumberFormat = original;
    }
  });
});
