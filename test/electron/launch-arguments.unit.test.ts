// What the system hands the app on its command line: links and campaign files, never the executable, the app's
// folder or Chromium's switches.
import { describe, expect, it } from 'vitest';
import { openTargetsIn } from '../../src-main/electron/launch-arguments';

describe('the launch arguments', () => {
  it('finds the links and campaign files among the arguments', () => {
    const argv = [
      '/opt/MLSO Downloader/mlso-downloader',
      '--no-sandbox',
      '--allow-file-access-from-files=x.mlso-campaign.json',
      'MLSO-Downloader://search?instrument=kcor&product=pb',
      '/home/me/eclipse.mlso-campaign.json',
      '/home/me/notes.txt',
    ];
    expect(openTargetsIn(argv)).toEqual([
      { kind: 'link', link: 'MLSO-Downloader://search?instrument=kcor&product=pb' },
      { kind: 'file', file: '/home/me/eclipse.mlso-campaign.json' },
    ]);
    expect(openTargetsIn(['/home/me/x.mlso-campaign.json'])).toEqual([]);
  });
});
