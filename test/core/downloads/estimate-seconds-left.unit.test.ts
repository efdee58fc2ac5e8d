// The time left in the status bar: what is still to come over the current speed, with files whose size the
// listing did not give estimated from those it did.
import { describe, expect, it } from 'vitest';
import { estimateSecondsLeft } from '../../../src-main/core/downloads/job-views';

describe('the estimate of the time left', () => {
  it('is 0 when nothing is pending, and unknown when no pending file has a known size', () => {
    expect(estimateSecondsLeft(1_000, { count: 0, knownCount: 0, knownBytes: 0 }, 0)).toBe(0);
    expect(estimateSecondsLeft(1_000, { count: 3, knownCount: 0, knownBytes: 0 }, 0)).toBeNull();
  });

  it('is the bytes still to come over the speed', () => {
    expect(estimateSecondsLeft(250, { count: 2, knownCount: 2, knownBytes: 1_000 }, 0)).toBe(4);
    expect(estimateSecondsLeft(250, { count: 2, knownCount: 2, knownBytes: 1_000 }, 500)).toBe(2);
  });

  it('gives a file of unknown size the average size of the known ones', () => {
    // 4 known files of 100 bytes on average; 6 more taken as 100 each: 1,000 bytes, 100 of them in flight.
    expect(estimateSecondsLeft(300, { count: 10, knownCount: 4, knownBytes: 400 }, 100)).toBe(3);
  });

  it('is never below 0, even when more arrived than the listing said', () => {
    expect(estimateSecondsLeft(100, { count: 1, knownCount: 1, knownBytes: 100 }, 500)).toBe(0);
  });
});
