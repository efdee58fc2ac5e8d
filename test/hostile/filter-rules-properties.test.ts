// Property tests of the filter rules, shared by the command line, the window and the core: whatever is typed (or
// sent over IPC) as a filter value, the rules answer with a query or with short, printable problems; they never
// throw, never hang, and what they accept they accept again unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_HINTS } from '../../src-shared/filters/filter-hints';
import { FILTER_LABELS, FILTER_NAMES, checkFilterValue, checkFilters, type FileFilters } from '../../src-shared/filters/filter-rules';

const RUNS = { numRuns: 300 };
/** The longest a problem's message may be: one or two sentences, with a long typed value shortened. */
const LONGEST_MESSAGE = 400;
// eslint-disable-next-line no-control-regex -- control characters are what a message must not carry
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Values that look like filter values, and values that do not: odd characters, long runs, numbers of every kind. */
const typedText = fc.oneof(
  fc.constantFrom(
    '2025-03-24',
    '2025-3-4T1:2:3',
    '2025-02-29',
    '2hours',
    '0days',
    '2295',
    '99999999',
    '789',
    'waves',
    ' ',
    '',
    '\u0000',
    '\u202e',
    '9'.repeat(400),
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('1', '2', '-', ':', 'T', ' ', 'h', 'o', 'u', 'r', 's', 'Z'), maxLength: 30 }),
  fc.constantFrom('x', '1', ' ', '\u001b[2J').chain((piece) => fc.integer({ min: 1, max: 20_000 }).map((count) => piece.repeat(count))),
);
const typedValue = fc.oneof(typedText, fc.double(), fc.integer(), fc.constant(null), fc.constant(undefined));
/** The product metadata's list of filters: the server's, so anything at all, however long. */
const acceptedByServer = fc.oneof(
  fc.array(fc.constantFrom(...FILTER_NAMES, 'other')),
  fc.array(fc.oneof(fc.constantFrom(...FILTER_NAMES), fc.string({ unit: 'binary', maxLength: 200 })), { maxLength: 60 }),
);
const filters = fc.dictionary(fc.constantFrom(...FILTER_NAMES), typedValue, { maxKeys: FILTER_NAMES.length }) as fc.Arbitrary<FileFilters>;

function expectClearProblem(message: string, filterLabel?: string): void {
  expect(message.length).toBeGreaterThan(0);
  expect(message.length).toBeLessThanOrEqual(LONGEST_MESSAGE);
  expect(message).not.toMatch(CONTROL);
  if (filterLabel) expect(message.startsWith(filterLabel) || message.includes(filterLabel)).toBe(true);
}

describe('the filter rules, against anything typed', () => {
  it('check any set of filters into a query or into short, printable problems', () => {
    fc.assert(
      fc.property(filters, fc.option(acceptedByServer, { nil: undefined }), fc.option(typedText, { nil: undefined }), (typed, accepted, product) => {
        const result = checkFilters(typed, accepted, product);
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) expectClearProblem(problem.message);
          return;
        }
        // What was accepted is accepted again, as it is: the query the service gets is a fixed point.
        for (const [name, value] of Object.entries(result.query)) expect(checkFilterValue(name as keyof FileFilters, value!)).toEqual({ ok: true, value });
      }),
      RUNS,
    );
  });

  it('check one value of any filter into a value or a short, printable message naming the filter', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FILTER_NAMES), fc.oneof(typedText, fc.double(), fc.integer()), (name, raw) => {
        const result = checkFilterValue(name, raw);
        if (result.ok) expect(checkFilterValue(name, result.value)).toEqual(result);
        else expectClearProblem(result.message, FILTER_LABELS[name]);
      }),
      RUNS,
    );
  });

  it('give a hint for any value, instant and coverage, without throwing', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILTER_NAMES),
        typedText,
        fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        fc.option(fc.tuple(fc.double({ min: -1e13, max: 1e13, noNaN: true }), fc.double({ min: 0, max: 1e12, noNaN: true })), { nil: null }),
        (name, value, nowMs, span) => {
          const hint = FILTER_HINTS[name](value, nowMs, span ? { startMs: span[0], endMs: span[0] + span[1] } : null);
          expect(typeof hint).toBe('string');
        },
      ),
      RUNS,
    );
  });

  it('give a hint for a rotation whose dates lie past the end of the calendar', () => {
    expect(FILTER_HINTS.cr('11111111', Date.UTC(2025, 2, 24), null)).toBe('Rotation 11111111 is far beyond any data');
  });
});
