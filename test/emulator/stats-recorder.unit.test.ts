import { describe, expect, it } from 'vitest';
import { STARTS_KEPT_PER_FILE, StatsRecorder } from '../../src-main/emulator/stats';

describe('the emulator stats recorder', () => {
  it('keeps the first start times of each file only, while still counting every download', () => {
    const recorder = new StatsRecorder();
    for (let n = 0; n < STARTS_KEPT_PER_FILE * 10; n++) recorder.downloadStarted('a.fts');
    recorder.downloadStarted('b.fts');
    const stats = recorder.snapshot();
    expect(stats.downloadsByFile).toEqual({ 'a.fts': STARTS_KEPT_PER_FILE * 10, 'b.fts': 1 });
    expect(stats.downloadsStarted).toBe(STARTS_KEPT_PER_FILE * 10 + 1);
    expect(stats.downloadStartsByFile['a.fts']).toHaveLength(STARTS_KEPT_PER_FILE);
    expect(stats.downloadStartsByFile['b.fts']).toHaveLength(1);
  });

  it('hands out copies: changing a snapshot does not change the recorder', () => {
    const recorder = new StatsRecorder();
    recorder.downloadStarted('a.fts');
    recorder.snapshot().downloadStartsByFile['a.fts']!.push(0);
    expect(recorder.snapshot().downloadStartsByFile['a.fts']).toHaveLength(1);
  });
});
