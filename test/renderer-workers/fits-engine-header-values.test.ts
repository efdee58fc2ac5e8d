// In the node project: the worker's engine needs no DOM, and its fixtures are files.
// The app's header list shows each value as its FITS type reads (astropy's reading of the same file, written by
// scripts/fixtures/make_fits_header_types.py): a real keeps its point, an integer past 2^53 its exact digits.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FitsEngine } from '../../src-renderer/quicklook/workers/fits-engine';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'fits-header');

describe("the app's header list", () => {
  it('shows reals, exact integers, complex and logical values as astropy reads them', () => {
    const bytes = new Uint8Array(readFileSync(path.join(FIXTURES, 'typed-cards.fits')));
    const opened = new FitsEngine().open(bytes, 'typed-cards.fits');
    const shown = new Map(opened.hdus[0]!.cards.map((card) => [card.keyword, card.value]));
    expect(
      Object.fromEntries(['BZERO', 'BZINT', 'X', 'Y', 'Z', 'E5', 'BLANK', 'PASTSAFE', 'BIG', 'CPLX', 'FLAG', 'HUGE'].map((key) => [key, shown.get(key)])),
    ).toEqual({
      BZERO: '32768.0',
      BZINT: '32768',
      X: '226.0',
      Y: '1500.0',
      Z: '-0.0',
      E5: '100000.0',
      BLANK: '-9223372036854775808',
      PASTSAFE: '9007199254740993',
      BIG: '100000000000000000000000000000000000000000000000',
      CPLX: '(1.5, -2.0)',
      FLAG: 'F',
      HUGE: 'Infinity',
    });
  });
});
