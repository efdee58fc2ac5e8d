import { describe, expect, it } from 'vitest';
import type { CampaignFileView } from '../../../src-shared/contract/contract';
import { campaignCoverage } from '../../../src-shared/coverage/campaign-coverage';
import { COVERAGE_STATES } from '../../../src-shared/coverage/state-breakdown';
import type { FileStanding } from '../../../src-shared/campaigns/file-standing';

/** Where such a file stands (the store says, by the rule of src-main/core/campaigns/file-standing.ts). */
function standingOf(state: CampaignFileView['state'], expectedSha256: string | null): FileStanding {
  if (state === 'done') return expectedSha256 === null || expectedSha256 === 'a'.repeat(64) ? 'onDisk' : 'differs';
  if (state === 'queued' || state === 'active' || state === 'paused') return 'queued';
  return state === 'failed' ? 'failed' : 'missing';
}

const file = (dateObs: string | null, state: CampaignFileView['state'], expectedSha256: string | null = null): CampaignFileView => ({
  relativePath: `${dateObs}.fts`,
  filename: `${dateObs}.fts`,
  instrument: 'kcor',
  product: 'pb',
  dateObs,
  state,
  standing: standingOf(state, expectedSha256),
  jobId: state === 'done' ? 1 : null,
});

describe("a campaign's coverage", () => {
  it('stacks the standings the campaign counts by, a file that differs from a shared list apart from those on disk', () => {
    expect(COVERAGE_STATES).toEqual(['onDisk', 'differs', 'queued', 'failed', 'changed', 'missing', 'noLongerListed']);
    const coverage = campaignCoverage([file('2025-03-20T18:00:00', 'done'), file('2025-03-20T18:01:00', 'done', 'b'.repeat(64))])!;
    const sum = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0);
    expect([sum(coverage.breakdown.onDisk), sum(coverage.breakdown.differs)]).toEqual([1, 1]);
  });

  it("bins the files over their own span, each bin's states adding up to its count", () => {
    const files = [
      file('2025-03-20T18:00:00', 'done'),
      file('2025-03-20T18:10:00', 'failed'),
      file('2025-03-22T19:00:00', 'queued'),
      file('2025-03-24T20:00:00', null),
      file(null, 'done'),
    ];
    const coverage = campaignCoverage(files)!;
    const total = Array.from(coverage.bins.counts).reduce((sum, count) => sum + count, 0);
    expect(total).toBe(4);
    for (let bin = 0; bin < coverage.bins.counts.length; bin += 1) {
      const states = coverage.breakdown.onDisk[bin]! + coverage.breakdown.queued[bin]! + coverage.breakdown.failed[bin]! + coverage.breakdown.missing[bin]!;
      expect(states).toBe(coverage.bins.counts[bin]);
    }
    const sum = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0);
    expect([sum(coverage.breakdown.onDisk), sum(coverage.breakdown.queued), sum(coverage.breakdown.failed), sum(coverage.breakdown.missing)]).toEqual([
      1, 1, 1, 1,
    ]);
    // Nights and the empty days between are gaps.
    expect(Array.from(coverage.bins.counts).filter((count) => count === 0).length).toBeGreaterThan(coverage.bins.counts.length / 2);
  });

  it('has nothing to show without dated files', () => {
    expect(campaignCoverage([])).toBeNull();
    expect(campaignCoverage([file(null, 'done')])).toBeNull();
  });
});
