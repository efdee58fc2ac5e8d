// The tables the Downloads order is made from (the SQL of job-pages.ts and the window's comparator alike) place every
// state once; test/core/downloads/job-pages.unit.test.ts holds the two orders made from them to each other.
import { describe, expect, it } from 'vitest';
import { GROUP_OF, STATE_RANK, WORK_GROUPS } from '../../src-shared/downloads/job-order';
import { JOB_STATES } from '../../src-shared/downloads/job-state';

describe('the Downloads order’s tables', () => {
  it('put every state in one group of the default order and give it its own rank in the State column', () => {
    const grouped = WORK_GROUPS.flatMap((group) => group.states);
    expect([...grouped].sort()).toEqual([...JOB_STATES].sort());
    expect(Object.keys(GROUP_OF).sort()).toEqual([...JOB_STATES].sort());
    expect(new Set(Object.values(STATE_RANK)).size).toBe(JOB_STATES.length);
    expect(STATE_RANK).toEqual({ active: 0, queued: 1, paused: 2, failed: 3, done: 4, cancelled: 5 });
  });
});
