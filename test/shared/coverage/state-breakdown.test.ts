// A campaign's files by state per bin, on the timeline's own scale.
import { describe, expect, it } from 'vitest';
import { breakdownByState, COVERAGE_STATES, describeStates, type CoverageState } from '../../../src-shared/coverage/state-breakdown';
import { coverageBins } from '../../../src-shared/coverage/timeline-bins';

const ms = (text: string): number => Date.parse(`${text}Z`);

describe('breakdownByState', () => {
  it('counts each file in its state and bin; the states of a bin add up to its count', () => {
    const files = ['2025-03-24T18:00:00', '2025-03-24T18:10:00', '2025-03-24T18:20:00', '2025-03-24T19:05:00', '2025-03-24T20:30:00', 'junk'];
    const states: CoverageState[] = ['onDisk', 'onDisk', 'failed', 'queued', 'missing', 'onDisk'];
    const range = { startMs: ms('2025-03-24T17:00:00'), endMs: ms('2025-03-24T22:00:00') };
    const bins = coverageBins(files, range);
    const breakdown = breakdownByState(bins, files, (index) => states[index]!);
    // 5 hours: 2-minute bins; 18:00 is bin 30, 18:10 bin 35, 18:20 bin 40, 19:05 bin 62, 20:30 bin 105.
    expect(bins.size).toEqual({ unit: 'minute', step: 2 });
    expect(breakdown.onDisk[30]).toBe(1);
    expect(breakdown.onDisk[35]).toBe(1);
    expect(breakdown.failed[40]).toBe(1);
    expect(breakdown.queued[62]).toBe(1);
    expect(breakdown.missing[105]).toBe(1);
    for (let bin = 0; bin < bins.counts.length; bin++) {
      const sum = COVERAGE_STATES.reduce((total, state) => total + (breakdown[state][bin] ?? 0), 0);
      expect(sum, `bin ${bin}`).toBe(bins.counts[bin]);
    }
  });
});

describe('describeStates', () => {
  it('names the states present across a span of bins, in the stacking order', () => {
    const breakdown = {
      onDisk: [1200, 0, 3],
      differs: [0, 0, 2],
      queued: [0, 0, 30],
      failed: [0, 0, 10],
      changed: [0, 0, 0],
      missing: [0, 0, 0],
      noLongerListed: [0, 0, 0],
    };
    expect(describeStates(breakdown, 0, 2)).toBe('1,203 on disk, 2 differ from the shared list, 30 queued, 10 failed');
    expect(describeStates(breakdown, 2, 1)).toBe('3 on disk, 2 differ from the shared list, 30 queued, 10 failed');
    expect(describeStates(breakdown, 1, 1)).toBe('');
  });
});
