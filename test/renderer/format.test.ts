// How counts, rates and times left are written.
import { describe, expect, it } from 'vitest';
import { formatCount, formatEta, formatSpeed, hostOf, percent, plural } from '../../src-renderer/lib/format';

describe('format', () => {
  it('writes counts with thousands separators and plurals', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(plural(1, 'file')).toBe('1 file');
    expect(plural(1234, 'file')).toBe('1,234 files');
  });

  it('writes times left compactly and says when it cannot tell', () => {
    expect(formatEta(null)).toBe('—');
    expect(formatEta(45.4)).toBe('45 s');
    expect(formatEta(200)).toBe('3 min 20 s');
    expect(formatEta(7500)).toBe('2 h 05 min');
  });

  it('writes speeds with one decimal', () => {
    expect(formatSpeed(0)).toBe('0 B/s');
    expect(formatSpeed(2_500_000)).toBe('2.4 MB/s');
  });

  it('clamps percentages and survives an unknown whole', () => {
    expect(percent(5, 0)).toBe(0);
    expect(percent(150, 100)).toBe(100);
    expect(percent(1, 3)).toBe(33);
  });

  it('names a server by its host', () => {
    expect(hostOf('http://api.mlso.ucar.edu')).toBe('api.mlso.ucar.edu');
    expect(hostOf('not a url')).toBe('not a url');
  });
});
