// `header` as users run it: the built mlso-dl (node scripts/build-main.mjs first) writing into a real pipe read by
// a shell tool. Typed values in --json, and headers too long to be real refused in one line.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPiped, stopBuiltCli } from '../helpers/built-cli';
import { fitsFileOf } from './fits-test-input';

afterEach(async () => {
  await stopBuiltCli();
});

const TYPED = path.resolve(import.meta.dirname, '../fixtures/fits-header/typed-cards.fits');

/** A primary header of `records` (80 columns each, blank-filled) and END, in whole blocks. */
function headerOf(records: readonly string[]): Uint8Array {
  const text = [...records, 'END'].map((record) => record.padEnd(80)).join('');
  return Uint8Array.from(text.padEnd(Math.ceil(text.length / 2880) * 2880), (c) => c.charCodeAt(0));
}

const PRIMARY = ['SIMPLE  =                    T', 'BITPIX  =                    8', 'NAXIS   =                    0'];

/** LONGSTR continued over `count` CONTINUE cards, as a hostile server could send. */
function continuedOver(count: number): string[] {
  return ["LONGSTR = '&'", ...Array.from({ length: count }, (_, i) => `CONTINUE  '${'x'.repeat(66)}${i < count - 1 ? '&' : ''}'`)];
}

describe('mlso-dl header through a pipe', () => {
  it('--json | cat: each value with its FITS type, reals written as reals, integers past 2^53 as exact digits', async () => {
    const input = await fitsFileOf(await readFile(TYPED), 'typed.fits');
    const run = await runPiped(['header', input, '--json'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    const text = run.output.toString();
    expect(text).toContain('"keyword": "BZERO",\n        "type": "real",\n        "value": 32768.0,');
    expect(text).toContain('"keyword": "BZINT",\n        "type": "integer",\n        "value": 32768,');
    expect(text).toContain('"keyword": "BLANK",\n        "type": "integer",\n        "value": "-9223372036854775808",');
    const [primary] = JSON.parse(text) as { cards: { keyword: string; type: string; value: unknown }[] }[];
    const cards = new Map(primary!.cards.map((card) => [card.keyword, { type: card.type, value: card.value }]));
    expect(cards.get('Y')).toEqual({ type: 'real', value: 1500 });
    expect(cards.get('Z')).toEqual({ type: 'real', value: -0 });
    expect(cards.get('BIG')).toEqual({ type: 'integer', value: '100000000000000000000000000000000000000000000000' });
    expect(cards.get('CPLX')).toEqual({ type: 'complex', value: { re: 1.5, im: -2 } });
    // As astropy reads them: a keyword in capitals, strings without their closing quote or with a TAB refused.
    expect(cards.get('DATE-OBS')).toEqual({ type: 'string', value: '2025-03-24T21:03:04' });
    expect(cards.get('UNTERM')).toEqual({ type: 'malformed', value: "'no closing quote" });
    expect(cards.get('TABSTR')).toEqual({ type: 'malformed', value: "'a\tb'" });
    expect(text).toContain('"value": "\'a\\tb\'",');
  });

  it('a long string over more than 1,000 CONTINUE cards: refused in one line, status 2, at once', async () => {
    const input = await fitsFileOf(headerOf([...PRIMARY, ...continuedOver(16_000)]), 'hostile.fts');
    const run = await runPiped(['header', input, '--json'], 'cat');
    expect(run.statuses).toEqual([2, 0]);
    expect(run.output.toString()).toBe('');
    expect(run.stderr).toBe(`mlso-dl: ${input} has a damaged header in HDU 0: a long string (LONGSTR) continued over more than 1,000 CONTINUE cards.\n`);
  });

  it('1,000 CONTINUE cards are still a header: the string whole', async () => {
    const input = await fitsFileOf(headerOf([...PRIMARY, ...continuedOver(1000)]));
    const run = await runPiped(['header', input, '--json', '--hdu', '0'], 'cat');
    expect(run.statuses).toEqual([0, 0]);
    const cards = JSON.parse(run.output.toString()) as { keyword: string; value: unknown }[];
    expect(cards.at(-1)).toEqual({ keyword: 'LONGSTR', type: 'string', value: 'x'.repeat(66_000), comment: '' });
  });

  it('a header with no END in its first 1,000 blocks (36,000 cards): refused in one line, status 2', async () => {
    const records = [...PRIMARY, ...Array.from({ length: 36_000 }, (_, i) => `HISTORY ${i}`)];
    const bytes = headerOf(records).subarray(0, 1000 * 2880); // END would be card 36,004: cut off
    const input = await fitsFileOf(bytes, 'endless.fts');
    const run = await runPiped(['header', input], 'cat');
    expect(run.statuses).toEqual([2, 0]);
    expect(run.stderr).toBe(`mlso-dl: ${input} has a damaged header in HDU 0: no END card in its first 1000 blocks.\n`);
  });
});
