// While a campaign's files download, the window hears of its counts at most once a second (kept by the state
// database, they cost a few rows a campaign); the last progress is always followed by one announcement.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCampaigns, type CampaignDeps } from '../../../src-main/core/app/campaign-handlers';
import type { ProgressUpdate } from '../../../src-shared/downloads/progress-types';

afterEach(() => vi.useRealTimers());

/** A core receiving a progress update about a campaign's file every 100 ms for `seconds`. */
async function downloading(seconds: number): Promise<{ announcedAt: number[] }> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  let clock = 0;
  const announcedAt: number[] = [];
  const engine = new EventEmitter();
  const deps = {
    service: {
      store: { holdsAnyTarget: () => true, list: () => [] },
      overviews: () => [],
    },
    engine,
    settings: {},
    signedIn: () => Promise.resolve(true),
    emit: (event: string) => {
      if (event === 'campaigns:changed') announcedAt.push(clock);
    },
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
  it('are told about once a second, and the last progress is still followed by one', async () => {
    const { announcedAt } = await downloading(60);
    expect(announcedAt.length).toBeGreaterThanOrEqual(50);
    expect(announcedAt.length).toBeLessThanOrEqual(61);
    expect(announcedAt.at(-1)!).toBeGreaterThanOrEqual(60_000);
  });
});
