import { describe, expect, it } from 'vitest';
import { humanFileSize, humanSize, listingTotal } from '../../src-shared/format/human-size';
import { checkSafeFilename } from '../../src-shared/files/safe-filename';
import { carringtonRotationAt, carringtonRotationSpan, carringtonRotationStart } from '../../src-science/astro/carrington';

describe('sizes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [2582027, '2.5 MB'],
    [31501440, '30.0 MB'],
    [1024 ** 3 * 1.25, '1.3 GB'],
    [1024 * 1024 - 1, '1.0 MB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(humanSize(bytes)).toBe(text);
  });
  it('shows an unknown size as unknown and marks totals that include one as a lower bound', () => {
    expect(humanFileSize(0)).toBe('unknown');
    expect(listingTotal([2582027, 2581064])).toMatchObject({ lowerBound: false, text: '4.9 MB' });
    expect(listingTotal([2582027, 0])).toMatchObject({ bytes: 2582027, lowerBound: true, text: '≥ 2.5 MB' });
  });
});

describe('file names from the listing', () => {
  it.each(['20250324_210304_kcor_l2_pb.fts', '20250324.200652.ucomp.789.l2.fts', 'a..b.fts'])('accepts %s', (name) => {
    expect(checkSafeFilename(name)).toEqual({ ok: true });
  });
  it.each([
    '../evil.fts',
    '..',
    '.',
    'dir/file.fts',
    'C:\\Windows\\x.fts',
    '/etc/passwd',
    'bad\u0000name.fts',
    'line\nbreak.fts',
    '.hidden.fts',
    '',
    'con.fts',
    'trailing.fts ',
    'x'.repeat(256),
    'csi\u009b2J.fts',
    'evil\u202egnp.fts',
    'isolated\u2066name.fts',
  ])('refuses %j', (name) => {
    expect(checkSafeFilename(name).ok).toBe(false);
  });
});

describe('Carrington rotations', () => {
  it('starts the first rotation on 1853-11-09 (test/science/astro/carrington.test.ts checks every start against sunpy)', () => {
    expect(new Date(carringtonRotationStart(1)).toISOString().slice(0, 10)).toBe('1853-11-09');
  });
  it('finds the rotation of an instant and spans about 27.3 days', () => {
    const instant = Date.UTC(2025, 2, 24, 21, 3, 4);
    const n = carringtonRotationAt(instant);
    const span = carringtonRotationSpan(n);
    expect(span.start).toBeLessThanOrEqual(instant);
    expect(span.end).toBeGreaterThan(instant);
    expect((span.end - span.start) / 86_400_000).toBeCloseTo(27.27, 0);
  });
});
