// The bench's --record option: it records this checkout's figures only, never another CLI's (--cli).
import { expect, it } from 'vitest';
import { parseBenchOptions, USAGE } from '../../scripts/bench/bench-options';

it('takes --record, and says what it does in --help', () => {
  expect(parseBenchOptions(['--record', '--only', 'reuse'])).toMatchObject({ record: true, only: ['reuse'] });
  expect(parseBenchOptions([])).toMatchObject({ record: false });
  expect(USAGE).toContain('--record     write the tables of the parts that ran into bench/results.json and docs/benchmarks.md');
});

it('refuses --record with --cli, whose figures are not this checkout’s', () => {
  expect(() => parseBenchOptions(['--record', '--cli', '/tmp/other/bin/mlso-dl.js'])).toThrow(
    '--record measures this checkout only: leave out --cli, or leave out --record to compare',
  );
});
