import { describe, expect, it } from 'vitest';
import { LAYOUT_PLACEHOLDERS, checkLayout, layoutFolderOf } from '../../src-shared/campaigns/folder-layout';
import { campaignSlug, checkCampaignName } from '../../src-shared/campaigns/campaign-name';

const KCOR = { instrument: 'kcor', product: 'pb', 'date-obs': '2025-03-24T21:03:04', filename: 'a.fts' };
const UCOMP = { ...KCOR, instrument: 'ucomp', product: 'l2', 'wave-region': '1074', 'obs-plan': 'synoptic-original-lines.cbk' };

describe('folder layout templates', () => {
  it.each([
    ['', ''],
    ['{instrument}/{product}/{yyyy}/{mm}/{dd}', '{instrument}/{product}/{yyyy}/{mm}/{dd}'],
    ['  {instrument}/{yyyy}-{mm}//{dd}/ ', '{instrument}/{yyyy}-{mm}/{dd}'],
    ['by-region/{wave_region}_{obs_plan}', 'by-region/{wave_region}_{obs_plan}'],
    ['a..b/{dd}', 'a..b/{dd}'],
    // Found by the layout property (seed -88451926): spaces around a folder went into the stored template,
    // which then checked differently again.
    ['{instrument} /', '{instrument}'],
    ['a / b/ /{dd}', 'a/b/{dd}'],
  ])('accepts %j as %j', (raw, template) => {
    expect(checkLayout(raw)).toEqual({ ok: true, template });
  });

  it.each([
    ['../outside', /goes up or stays/],
    ['{instrument}/../../etc', /goes up or stays/],
    ['{instrument}\\..\\..', /holds a backslash/],
    // On Windows a separator, elsewhere part of a name: either reading would surprise someone, so neither is taken.
    ['a\\b', /^The folder layout "a\\b" holds a backslash \(separate folders with \/, on every system\)\./],
    ['{instrument}\\{yyyy}', /holds a backslash/],
    ['./{yyyy}', /goes up or stays/],
    ['/etc/{yyyy}', /is an absolute path/],
    ['\\\\server\\share', /is an absolute path/],
    ['C:\\data', /is an absolute path/],
    ['c:relative', /is an absolute path/],
    ['data:stream', /holds a colon/],
    ['{year}', /unknown placeholder \{year\}/],
    ['{instrument', /brace that opens or closes no placeholder/],
    ['instrument}', /brace that opens or closes no placeholder/],
    ['a\u0000b', /control characters/],
    ['x'.repeat(501), /longer than 500 characters/],
  ])('refuses %j', (raw, why) => {
    const checked = checkLayout(raw);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.message).toMatch(why);
      expect(checked.message).toMatch(/Use folders and placeholders inside the campaign folder, e\.g\. \{instrument\}/);
    }
  });

  it('places entries by their own values, and "unknown" where an entry has none', () => {
    expect(layoutFolderOf('', KCOR)).toBe('');
    expect(layoutFolderOf('{instrument}/{product}/{yyyy}/{mm}/{dd}', KCOR)).toBe('kcor/pb/2025/03/24');
    expect(layoutFolderOf('{instrument}/{wave_region}/{obs_plan}', UCOMP)).toBe('ucomp/1074/synoptic-original-lines.cbk');
    expect(layoutFolderOf('{instrument}/{wave_region}', KCOR)).toBe('kcor/unknown');
    expect(layoutFolderOf('{yyyy}', { ...KCOR, 'date-obs': 'not a date' })).toBe('unknown');
  });

  it('knows its placeholders in the order the help and the form list them, each with its value', () => {
    expect(LAYOUT_PLACEHOLDERS).toEqual(['instrument', 'product', 'yyyy', 'mm', 'dd', 'wave_region', 'obs_plan']);
    expect(checkLayout('{year}')).toEqual({
      ok: false,
      message:
        'The folder layout "{year}" uses an unknown placeholder {year} (known: {instrument}, {product}, {yyyy}, {mm}, {dd}, {wave_region}, {obs_plan}). Use folders and placeholders inside the campaign folder, e.g. {instrument}/{product}/{yyyy}/{mm}/{dd}.',
    });
    const all = '{dd}-{mm}-{yyyy}/{obs_plan}_{wave_region}/{product}.{instrument}';
    expect(layoutFolderOf(all, UCOMP)).toBe('24-03-2025/synoptic-original-lines.cbk_1074/l2.ucomp');
    expect(layoutFolderOf(all, { ...UCOMP, 'date-obs': '2025-03', 'wave-region': 1074.5, 'obs-plan': Number.NaN })).toBe(
      'unknown-unknown-unknown/unknown_1074.5/l2.ucomp',
    );
    expect(layoutFolderOf(all, { ...UCOMP, 'date-obs': '2025-03-24', 'wave-region': ' 789 ', 'obs-plan': null })).toBe('24-03-2025/unknown_789/l2.ucomp');
  });

  it('turns hostile values from the server into one safe folder name each', () => {
    const hostile = (plan: unknown) => layoutFolderOf('{instrument}/{obs_plan}', { ...KCOR, 'obs-plan': plan });
    expect(hostile('../../etc')).toBe('kcor/_._.._etc');
    expect(hostile('..')).toBe('kcor/_');
    expect(hostile('a/b\\c:d')).toBe('kcor/a_b_c_d');
    expect(hostile('x\u0000y\nz')).toBe('kcor/x_y_z');
    expect(hostile('   ')).toBe('kcor/unknown');
    expect(hostile({ not: 'text' })).toBe('kcor/unknown');
    expect(hostile('p'.repeat(400)).length).toBe('kcor/'.length + 120);
    for (const value of ['../../etc', '..', '/', 'C:', '.']) {
      const placed = hostile(value);
      expect(placed.split('/').every((folder) => folder !== '..' && folder !== '.' && folder !== '')).toBe(true);
    }
  });
});

describe('campaign names', () => {
  it('takes a trimmed name and refuses empty, long or control-character names', () => {
    expect(checkCampaignName('  2024 eclipse ')).toEqual({ ok: true, name: '2024 eclipse' });
    expect(checkCampaignName('  ')).toMatchObject({ ok: false, message: expect.stringContaining('Give the campaign a name') });
    expect(checkCampaignName('n'.repeat(101))).toMatchObject({ ok: false });
    expect(checkCampaignName('a\tb')).toMatchObject({ ok: false, message: expect.stringContaining('control characters') });
  });

  it('makes file names from names', () => {
    expect(campaignSlug('2024 Eclipse: KCor + UCoMP')).toBe('2024-eclipse-kcor-ucomp');
    expect(campaignSlug('../..')).toBe('campaign');
    expect(campaignSlug('Été')).toBe('ete');
  });
});
