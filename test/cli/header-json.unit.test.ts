// The JSON writer of `header --json`: JSON.stringify's layout, with reals written as reals.
import { describe, expect, it } from 'vitest';
import { JsonReal, jsonText } from '../../src-main/cli/commands/header-json';

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
});
