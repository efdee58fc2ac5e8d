// `mlso-dl pixel` against astropy and numpy, pixel for pixel: test/fixtures/pixel-values/pixel-values.fits holds
// images of every sample type with the values a JSON writer can get wrong (+inf, -inf, NaN, 64-bit integers past
// 2^53, scaled integers that astropy gives as floats, BLANK), and pixel-values.astropy.json what numpy reads from
// each (written by scripts/fixtures/make_pixel_values.py; the tests never run Python). In-process; the built
// mlso-dl through a pipe is pixel-process.test.ts's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mlsoDl } from './fits-test-input';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/pixel-values');
const FILE = path.join(FIXTURES, 'pixel-values.fits');

interface AstropyHdu {
  hdu: number;
  name: string;
  /** numpy's dtype kind: 'i' or 'u' for integers, 'f' for floats. */
  kind: string;
  /** An integer as its digits, a float as the repr of its double ('inf', '-inf', 'nan'). */
  pixels: { x: number; y: number; value: string }[];
}
const reference = JSON.parse(readFileSync(path.join(FIXTURES, 'pixel-values.astropy.json'), 'utf8')) as { astropy: string; numpy: string; hdus: AstropyHdu[] };

const NON_FINITE: Record<string, string> = { inf: 'Infinity', '-inf': '-Infinity', nan: 'NaN' };

/** The `"value": ...` of the printed JSON, as written: JSON.parse would round an integer past 2^53. */
function valueToken(json: string): string {
  const match = /^ {2}"value": (.*),$/m.exec(json);
  if (!match) throw new Error(`no value in ${json}`);
  return match[1]!;
}

/** What `pixel --json` must write for numpy's value: integers as numbers while exact, reals as reals. */
function expectedToken(kind: string, value: string): { exact: string } | { real: number } {
  if (kind === 'i' || kind === 'u')
    return { exact: BigInt(value) <= BigInt(Number.MAX_SAFE_INTEGER) && BigInt(value) >= -BigInt(Number.MAX_SAFE_INTEGER) ? value : `"${value}"` };
  if (value in NON_FINITE) return { exact: `"${NON_FINITE[value]}"` };
  return { real: Number(value) };
}

/** What the text form must show: an integer's digits, a real to 7 significant digits, `blank` for NaN. */
function expectedText(kind: string, value: string): string {
  if (kind === 'i' || kind === 'u') return value;
  if (value === 'nan') return 'blank';
  if (value in NON_FINITE) return NON_FINITE[value]!;
  return String(Number(Number(value).toPrecision(7)));
}

const cases = reference.hdus.flatMap((hdu) => hdu.pixels.map((pixel) => [hdu.name, hdu.hdu, hdu.kind, pixel.x, pixel.y, pixel.value] as const));

describe(`pixel values as astropy ${reference.astropy} and numpy ${reference.numpy} read them`, () => {
  it('the fixture holds what the tests are about', () => {
    const values = reference.hdus.flatMap((hdu) => hdu.pixels.map((pixel) => pixel.value));
    expect(values).toEqual(expect.arrayContaining(['inf', '-inf', 'nan', '2982553151490137914', '18446744073709551615']));
    expect(new Set(reference.hdus.map((hdu) => hdu.kind))).toEqual(new Set(['i', 'u', 'f']));
  });

  it.each(cases)('%s (HDU %i, %s) pixel %i, %i = %s: --json writes it as numpy gives it', async (_name, hdu, kind, x, y, value) => {
    const run = await mlsoDl('pixel', FILE, String(x), String(y), '--hdu', String(hdu), '--json');
    expect(run.stderr).toBe('');
    const token = valueToken(run.stdout);
    const expected = expectedToken(kind, value);
    if ('exact' in expected) expect(token).toBe(expected.exact);
    else {
      expect(token, 'a real is written with a point or an exponent').toMatch(/[.e]/);
      expect(Object.is(Number(token), expected.real), `${token} for ${value}`).toBe(true);
    }
    expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
  });

  it.each(cases)('%s (HDU %i, %s) pixel %i, %i = %s: the text shows the same value', async (_name, hdu, kind, x, y, value) => {
    const run = await mlsoDl('pixel', FILE, String(x), String(y), '--hdu', String(hdu));
    expect(run.stdout.split('\n')[0]).toBe(`Pixel ${x}, ${y} of HDU ${hdu} (4 x 2): ${expectedText(kind, value)}`);
  });
});
