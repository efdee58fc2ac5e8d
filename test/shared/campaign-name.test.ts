// One rule for when two campaign names are the same name (the store's uniqueness, finding a campaign by the name
// typed, the app's running syncs): Unicode case folding and NFC, invisible characters left out.
import { describe, expect, it } from 'vitest';
import { campaignNameKey, checkCampaignName, sameCampaignName } from '../../src-shared/campaigns/campaign-name';

describe('campaign names: one rule for the same name', () => {
  it('folds case beyond ASCII, and composed and decomposed accents alike', () => {
    expect(sameCampaignName('Été', 'été')).toBe(true);
    expect(sameCampaignName('ÉTÉ', 'e\u0301te\u0301')).toBe(true);
    expect(sameCampaignName('Straße', 'STRASSE')).toBe(true);
    expect(sameCampaignName('ΟΔΟΣ', 'οδοσ')).toBe(true);
    expect(sameCampaignName('Été', 'Ete')).toBe(false);
    expect(sameCampaignName('2024 eclipse', '2024  eclipse')).toBe(false);
  });

  it('leaves out characters that show nothing, so a zero-width space does not make a second name', () => {
    expect(sameCampaignName('eclipse', 'ec\u200blipse\u2060')).toBe(true);
    expect(sameCampaignName('eclipse', '\ufeffeclipse')).toBe(true);
    expect(campaignNameKey('  Eclipse ')).toBe('eclipse');
  });

  it('refuses a name of invisible characters only', () => {
    for (const invisible of ['\u200b', '\u200b\u200c\u200d', ' \u2060 ', '\ufeff', '\u3164', '\u2800\u2800', '\u0301', '\u00a0\u2003']) {
      expect(checkCampaignName(invisible), JSON.stringify(invisible)).toMatchObject({
        ok: false,
        message: expect.stringContaining('Give the campaign a name'),
      });
    }
    expect(checkCampaignName('a\u200b')).toEqual({ ok: true, name: 'a\u200b' });
  });

  it('keeps a name in NFC, the form it is shown and stored in', () => {
    expect(checkCampaignName('e\u0301te\u0301')).toEqual({ ok: true, name: 'été' });
  });
});
