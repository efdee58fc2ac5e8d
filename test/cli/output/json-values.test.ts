// The JSON writer of `header --json` and `pixel --json`: JSON.stringify's layout, with reals written as reals,
// Infinity and NaN as strings, integers past 2^53 as exact digits.
import { describe, expect, it } from 'vitest';
import { jsonInteger, JsonReal, jsonReal, jsonText } from '../../../src-main/cli/output/json-values';

describe('jsonText', () => {
  it.each([
    ['plain values', [1, -2.5, 'a "quoted" \\ string\n', true, false, null, 1e21, 0]],
    ['nesting', { a: [1, { b: [], c: {} }], d: { e: 'f' }, '': [[]] }],
    ['undefined properties are left out, undefined items are null', { a: undefined, b: [undefined, 1] }],
    ['an empty array', []],
    ['an empty object', {}],
    ['text beyond ASCII and control characters', { ['K\u00e9y']: '\u00b0\u0001\u007f' }],
    ['a string alone', 'x'],
  ])('writes %s as JSON.stringify(value, null, 2) does', (_case, value) => {
    expect(jsonText(value)).toBe(JSON.stringify(value, null, 2));
  });

  it.each([
    [32768, '32768.0'],
    [-0, '-0.0'],
    [0, '0.0'],
    [226, '226.0'],
    [0.5, '0.5'],
    [1e47, '1e+47'],
    [-1.5e-7, '-1.5e-7'],
    [2 ** 60, '1152921504606847000.0'], // the shortest digits that read back as 2^60, as JSON.stringify writes it
  ])('writes the real %s as %s, which parses back to the same number', (value, text) => {
    expect(jsonText(new JsonReal(value))).toBe(text);
    expect(Object.is(JSON.parse(text), value)).toBe(true);
  });

  it('reals inside the layout', () => {
    expect(jsonText([{ value: new JsonReal(1), parts: { re: new JsonReal(-2), im: new JsonReal(0.25) } }])).toBe(
      '[\n  {\n    "value": 1.0,\n    "parts": {\n      "re": -2.0,\n      "im": 0.25\n    }\n  }\n]',
    );
  });

  it.each([
    [Infinity, 'Infinity'],
    [-Infinity, '-Infinity'],
    [Number.NaN, 'NaN'],
  ])('writes the real %s, which JSON has no number for, as the string "%s"', (value, text) => {
    expect(jsonReal(value)).toBe(text);
    expect(jsonText({ value: jsonReal(value) })).toBe(`{\n  "value": "${text}"\n}`);
  });

  it.each([
    [0n, 0],
    [-9007199254740991n, -9007199254740991],
    [9007199254740991n, 9007199254740991],
    [9007199254740992n, '9007199254740992'],
    [-9007199254740992n, '-9007199254740992'],
    [2982553151490137914n, '2982553151490137914'],
    [18446744073709551615n, '18446744073709551615'],
  ])('writes the integer %s as %j: a number while a double holds it exactly', (value, written) => {
    expect(jsonInteger(value)).toBe(written);
  });
});
