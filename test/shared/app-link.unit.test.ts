// The app's own links read as a hostile page could write them: only search and import, only the documented keys,
// checked values, no paths, no tricks, and a length cap; each refusal one line.
import { describe, expect, it } from 'vitest';
import { MAX_APP_LINK_LENGTH, parseAppLink } from '../../src-shared/links/app-link';

describe('an mlso-downloader:// link', () => {
  it('is a saved search: instrument, product and every filter, checked and normalised by the filter rules', () => {
    const link =
      'mlso-downloader://search?instrument=ucomp&product=l2&start-date=2025-03-24&end-date=2025-03-24T12:00:00&cr=2295&every=2hours&wave-region=1074&obs-plan=waves';
    expect(parseAppLink(link)).toEqual({
      ok: true,
      link: {
        kind: 'search',
        query: {
          instrument: 'ucomp',
          product: 'l2',
          filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-24T12:00:00', cr: '2295', every: '2hours', 'wave-region': '1074', 'obs-plan': 'waves' },
        },
      },
    });
    // Browsers may add a slash after the action.
    expect(parseAppLink('mlso-downloader://search/?instrument=kcor&product=pb')).toMatchObject({ ok: true });
  });

  it('offers a campaign file by its web address', () => {
    expect(parseAppLink('mlso-downloader://import?url=https%3A%2F%2Fmlso.hao.ucar.edu%2Fc%2Feclipse.mlso-campaign.json')).toEqual({
      ok: true,
      link: { kind: 'import', url: 'https://mlso.hao.ucar.edu/c/eclipse.mlso-campaign.json' },
    });
  });

  it.each([
    ['x'.repeat(MAX_APP_LINK_LENGTH + 1), 'longer than 2048 characters'],
    [`mlso-downloader://search?instrument=kcor&product=pb&obs-plan=${'a'.repeat(MAX_APP_LINK_LENGTH)}`, 'longer than 2048 characters'],
    ['https://evil.example/search?instrument=kcor&product=pb', 'not an mlso-downloader:// link'],
    ['mlso-downloader://download?instrument=kcor&product=pb', '"download" is not something the app does'],
    ['mlso-downloader://search/../../etc/passwd?instrument=kcor&product=pb', 'names a path'],
    ['mlso-downloader://search/%2e%2e/x?instrument=kcor&product=pb', 'names a path'],
    ['mlso-downloader://user:secret@search?instrument=kcor&product=pb', 'parts an app link never has'],
    ['mlso-downloader://search:8080?instrument=kcor&product=pb', 'parts an app link never has'],
    ['mlso-downloader://search?instrument=kcor&product=pb&folder=/etc', '"folder" is not a search field'],
    ['mlso-downloader://search?instrument=kcor&product=pb&__proto__=x', '"__proto__" is not a search field'],
    ['mlso-downloader://search?instrument=kcor&instrument=ucomp&product=pb', 'gives "instrument" twice'],
    ['mlso-downloader://search?instrument=../kcor&product=pb', 'no instrument'],
    ['mlso-downloader://search?instrument=KCOR%00&product=pb', 'no instrument'],
    ['mlso-downloader://search?instrument=kcor', 'no product'],
    ['mlso-downloader://search?instrument=kcor&product=pb&start-date=yesterday', 'Start date "yesterday" is not a date'],
    ['mlso-downloader://search?instrument=kcor&product=pb&start-date=2025-03-24&end-date=2025-03-01', 'is after end date'],
    ['mlso-downloader://import', 'names no campaign file'],
    ['mlso-downloader://import?url=file:///etc/passwd.mlso-campaign.json', 'not a web address'],
    ['mlso-downloader://import?url=https://mlso.hao.ucar.edu/etc/passwd', 'ends in .mlso-campaign.json'],
    ['mlso-downloader://import?url=https://me:pw@mlso.hao.ucar.edu/c.mlso-campaign.json', 'user name or password'],
    ['mlso-downloader://import?url=https://mlso.hao.ucar.edu/c.mlso-campaign.json&folder=/etc', '"folder" is not part of an import link'],
  ])('refuses %s in one line', (link, why) => {
    const check = parseAppLink(link);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.message).toContain(why);
    expect(check.message.startsWith('This link was not opened: ')).toBe(true);
    expect(check.message).not.toContain('\n');
    expect(check.message.length).toBeLessThan(300);
  });
});
