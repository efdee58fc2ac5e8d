// While a campaign's files download, the window hears of its counts at most once a second, and less often when
// counting is costly (a campaign of a million files: about 1.5 s a count), so the core is never busy counting more
// than a tenth of the time; the last progress is always followed by one announcement.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCampaigns, type CampaignDeps } from '../../../src-main/core/app/campaign-handlers';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';

afterEach(() => vi.useRealTimers());

/** A core whose counts take `countMs` of the clock, receiving a progress update about a campaign's file every 100 ms. */
async function downloading(countMs: number, seconds: number): Promise<{ announcedAt: number[] }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  let clock = 0;
  const announcedAt: number[] = [];
  const engine = new EventEmitter();
  const deps = {
    service: {
      store: { holdsAnyTarget: () => true, list: () => [] },
      countedOverviews: async () => {
        clock += countMs;
        return [];
      },
    },
    engine,
    settings: {},
    signedIn: () => Promise.resolve(true),
    emit: (event: string) => {
      if (event === 'campaigns:changed') announcedAt.push(clock);
    },
    now: () => clock,
  } as unknown as CampaignDeps;
  new AppCampaigns(deps);
  const update = { jobs: [{ folder: '/campaign', localName: 'a.fts' }] } as unknown as ProgressUpdate;
  for (let step = 0; step < seconds * 10; step += 1) {
    engine.emit('progress', update);
    clock += 100;
    await vi.advanceTimersByTimeAsync(100);
  }
  await vi.advanceTimersByTimeAsync(60_000);
  return { announcedAt };
}

describe('campaign counts told while files download', () => {
  it('are told about once a second when counting is cheap', async () => {
    const { announcedAt } = await downloading(5, 60);
    expect(announcedAt.length).toBeGreaterThanOrEqual(50);
    expect(announcedAt.length).toBeLessThanOrEqual(61);
  });

  it('take at most a tenth of the time when counting is costly, and the last progress is still followed by one', async () => {
    const { announcedAt } = await downloading(1500, 120);
    const countingMs = announcedAt.length * 1500;
    const spanMs = announcedAt.at(-1)!;
    expect(countingMs / spanMs).toBeLessThanOrEqual(0.12);
    expect(announcedAt.length).toBeGreaterThanOrEqual(5);
    // The counts told last are those after the last progress (120 s of it, the clock also moved by the counting).
    expect(announcedAt.at(-1)! - countingMs).toBeGreaterThanOrEqual(120_000 - 1500);
  });
});
