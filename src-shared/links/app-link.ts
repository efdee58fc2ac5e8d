// The app's own links, as a web page of the observatory hands them to the desktop app:
//   mlso-downloader://search?instrument=kcor&product=pb&start-date=2025-03-24&every=1hour
//   mlso-downloader://import?url=https://example.org/eclipse.mlso-campaign.json
// A search link is exactly a saved search (a FilesQuery: instrument, product, the files endpoint's filters, checked by
// the shared filter rules); an import link names a campaign file to offer for import. Nothing here starts a download
// or writes a file: the window fills Browse or opens the import form, and the user decides. Anything else is refused
// with one line. Plain data, no Node: the renderer may read it too.
import type { FilesQuery } from '../contract/contract';
import { checkFilters, FILTER_NAMES, type FileFilters } from '../filters/filter-rules';
import { displayName } from '../format/display-text';

export const APP_LINK_SCHEME = 'mlso-downloader';

/** Longer than any real search (every filter set is some 200 characters), short enough that nothing is hidden in one. */
export const MAX_APP_LINK_LENGTH = 2048;

/** The end of a shared campaign file's name, as `campaign export` names it and the desktop opens it. */
export const CAMPAIGN_FILE_SUFFIX = '.mlso-campaign.json';

type AppLink = { kind: 'search'; query: FilesQuery } | { kind: 'import'; url: string };
export type AppLinkCheck = { ok: true; link: AppLink } | { ok: false; message: string };

/** Instrument and product names as the API writes them (kcor, ucomp, pb, l2, ...). */
const CATALOGUE_NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

const SEARCH_KEYS: readonly string[] = ['instrument', 'product', ...FILTER_NAMES];

function refused(why: string): AppLinkCheck {
  return { ok: false, message: `This link was not opened: ${why}` };
}

/** Reads an app link, checking its form; the instrument and product are checked against the catalogue later (openRequestFromLink). */
export function parseAppLink(text: string): AppLinkCheck {
  if (text.length > MAX_APP_LINK_LENGTH) return refused(`it is longer than ${MAX_APP_LINK_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refused('it is not a link.');
  }
  if (url.protocol !== `${APP_LINK_SCHEME}:`) return refused(`it is not an ${APP_LINK_SCHEME}:// link.`);
  if (url.username || url.password || url.port || url.hash) return refused('it carries parts an app link never has.');
  // mlso-downloader://search?..., with nothing after the action: a path could only be a trick.
  if (url.pathname !== '' && url.pathname !== '/') return refused('it names a path; only search and import links are opened.');
  const keys = [...url.searchParams.keys()];
  const repeated = keys.find((key, index) => keys.indexOf(key) !== index);
  if (repeated !== undefined) return refused(`it gives "${displayName(repeated)}" twice.`);
  switch (url.hostname) {
    case 'search':
      return searchLink(url.searchParams);
    case 'import':
      return importLink(url.searchParams);
    default:
      return refused(`"${displayName(url.hostname)}" is not something the app does; use search or import.`);
  }
}

function searchLink(params: URLSearchParams): AppLinkCheck {
  const unknown = [...params.keys()].find((key) => !SEARCH_KEYS.includes(key));
  if (unknown !== undefined) return refused(`"${displayName(unknown)}" is not a search field (use instrument, product and the filters' names).`);
  const instrument = params.get('instrument') ?? '';
  const product = params.get('product') ?? '';
  if (!CATALOGUE_NAME.test(instrument)) return refused('it names no instrument the observatory has.');
  if (!CATALOGUE_NAME.test(product)) return refused('it names no product the observatory has.');
  const filters: FileFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    if (value !== null) filters[name] = value;
  }
  const checked = checkFilters(filters);
  if (!checked.ok) return refused(checked.problems[0]!.message);
  return { ok: true, link: { kind: 'search', query: { instrument, product, filters: checked.query } } };
}

function importLink(params: URLSearchParams): AppLinkCheck {
  const unknown = [...params.keys()].find((key) => key !== 'url');
  if (unknown !== undefined) return refused(`"${displayName(unknown)}" is not part of an import link (only url is).`);
  const address = params.get('url');
  if (!address) return refused('it names no campaign file (url=https://...).');
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return refused('its campaign file address is not a web address.');
  }
  // Which servers may serve one is the core's rule (campaign-file-fetch.ts): it knows the server in use.
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refused('its campaign file address is not a web address.');
  if (url.username || url.password) return refused('its campaign file address carries a user name or password.');
  if (!url.pathname.endsWith(CAMPAIGN_FILE_SUFFIX)) return refused(`a campaign file's name ends in ${CAMPAIGN_FILE_SUFFIX}.`);
  return { ok: true, link: { kind: 'import', url: url.href } };
}
