// A search's progress as the window hears of it: one announcement per interval while rows arrive, the latest at
// the interval's end, and the listing's end at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchProgress } from '../../../src-shared/search/result-page';
import { pacedProgress } from '../../../src-main/core/search/progress-pace';

const progress = (count: number, complete = false): SearchProgress => ({
  searchId: 'search-1',
  count,
  complete,
  failure: null,
  summary: { bytes: 0, unknownSizes: false, firstDateObs: null, lastDateObs: null, optionalFields: [] },
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the pace of a search’s progress', () => {
  it('announces the first at once, then the latest once per interval, and the end without waiting', () => {
    const heard: number[] = [];
    const announce = pacedProgress((update) => heard.push(update.count), 100);
    announce(progress(1000));
    for (let count = 2000; count <= 9000; count += 1000) announce(progress(count));
    expect(heard).toEqual([1000]);
    vi.advanceTimersByTime(100);
    expect(heard).toEqual([1000, 9000]);
    announce(progress(10_000));
    announce(progress(10_500, true));
    expect(heard).toEqual([1000, 9000, 10_500]);
    // The end cancelled the announcement that was waiting: nothing older follows it.
    vi.advanceTimersByTime(1000);
    expect(heard).toEqual([1000, 9000, 10_500]);
  });
});
