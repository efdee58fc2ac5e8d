// CampaignFilePaths (campaign-paths.ts) places a sync's listed files with each sub-folder's path joined once and the
// layout's folder names remembered (folder-layout.ts): the places must be those relativePathOf and targetPathOf
// give one file at a time, whatever the campaign's folder, the layout and the server's values.
import { describe, expect, it } from 'vitest';
import { CampaignFilePaths, relativePathOf, targetPathOf } from '../../../src-main/core/campaigns/campaign-paths';
import { layoutFolderOf } from '../../../src-shared/campaigns/folder-layout';

const DAY_MS = 24 * 60 * 60 * 1000;

/** KCor entries every 15 minutes over `days` days from 2025-12-30, with an observing plan that varies. */
function entries(days: number, plans: readonly unknown[] = ['synoptic']): Record<string, unknown>[] {
  const start = Date.UTC(2025, 11, 30);
  return Array.from({ length: days * 96 }, (_, index) => {
    const dateObs = new Date(start + (index * DAY_MS) / 96).toISOString().slice(0, 19);
    return {
      'date-obs': dateObs,
      filename: `${dateObs.replace(/[-:]/g, '').replace('T', '_')}_kcor_l2_pb.fts.gz`,
      instrument: 'kcor',
      product: 'pb',
      url: 'https://api.example.org/download',
      'obs-plan': plans[index % plans.length],
    };
  });
}

describe('the places of a campaign sync', () => {
  it.each([
    ['/data/mirror', '{yyyy}/{mm}/{dd}'],
    ['/data/mirror/', '{instrument}/{product}/{yyyy}/{mm}/{dd}'],
    ['/', '{yyyy}-{mm}'],
    ['relative/mirror', ''],
    ['/data/./a/../mirror', 'by-plan/{obs_plan}/{dd}'],
  ])('in %j with the layout %j are those of one file at a time', (folder, layout) => {
    const places = new CampaignFilePaths(folder, layout);
    for (const entry of entries(40, ['synoptic', '../../etc', ' ', 'a/b', null, 'CON'])) {
      const relativePath = relativePathOf(layout, entry as never);
      expect(places.of(entry as never)).toEqual({ relativePath, targetPath: targetPathOf(folder, relativePath) });
    }
  });

  it('keeps each layout to its own folder names, and places right past the names it remembers', () => {
    const kcor = entries(1)[0]!;
    expect(layoutFolderOf('{yyyy}/{mm}/{dd}', kcor as never)).toBe('2025/12/30');
    expect(layoutFolderOf('{obs_plan}/{dd}', { ...kcor, 'obs-plan': '..' } as never)).toBe('_/30');
    expect(layoutFolderOf('{obs_plan}', { ...kcor, 'obs-plan': '..' } as never)).toBe('_');
    expect(layoutFolderOf('{obs_plan}', { ...kcor, 'obs-plan': '30' } as never)).toBe('30');
    // More distinct values than a layout remembers names of: each is still its own folder.
    for (let index = 0; index < 25_000; index += 1)
      expect(layoutFolderOf('{obs_plan}', { ...kcor, 'obs-plan': `plan.${index}.` } as never)).toBe(`plan.${index}`);
  });
});
