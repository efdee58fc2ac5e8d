// Where a long header value may wrap: after punctuation inside it, never inside a word or a number.
import { describe, expect, it } from 'vitest';
import { partsBreakableAfterPunctuation } from '../../src-renderer/quicklook/break-points';

describe('partsBreakableAfterPunctuation', () => {
  it('cuts a file name after its underscores and the dot of its extension', () => {
    expect(partsBreakableAfterPunctuation('20250324_174402_kcor_l2_pb.fts')).toEqual(['20250324_', '174402_', 'kcor_', 'l2_', 'pb.', 'fts']);
  });

  it('leaves numbers, words and spaces whole, and the parts join to the text', () => {
    for (const text of ['1.112e-6', '-0.5', 'COSMO K-Coronagraph', 'helioprojective-cartesian', '2025-03-24T17:44:02', 'a/b c']) {
      expect(partsBreakableAfterPunctuation(text).join('')).toBe(text);
    }
    expect(partsBreakableAfterPunctuation('1.112e-6')).toEqual(['1.112e-6']);
    expect(partsBreakableAfterPunctuation('COSMO K-Coronagraph')).toEqual(['COSMO K-Coronagraph']);
    expect(partsBreakableAfterPunctuation('a: b')).toEqual(['a: b']);
  });
});
