// What the system hands the app on its command line: an mlso-downloader:// link (Windows and Linux start the app, or
// a second instance, with the link as an argument) or a campaign file (a double-click in the file manager). Chromium's
// own switches and the app's path are not either.
import { APP_LINK_SCHEME, CAMPAIGN_FILE_SUFFIX } from '../../src-shared/links/app-link';

export type OpenTarget = { kind: 'link'; link: string } | { kind: 'file'; file: string };

export function openTargetsIn(argv: readonly string[]): OpenTarget[] {
  const targets: OpenTarget[] = [];
  // argv[0] is the executable; in development argv[1] is the app's folder: neither is a target.
  for (const argument of argv.slice(1)) {
    if (argument.toLowerCase().startsWith(`${APP_LINK_SCHEME}:`)) targets.push({ kind: 'link', link: argument });
    else if (!argument.startsWith('-') && argument.toLowerCase().endsWith(CAMPAIGN_FILE_SUFFIX)) targets.push({ kind: 'file', file: argument });
  }
  return targets;
}
