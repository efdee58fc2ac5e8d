// What a link from the web or a campaign file opened from the desktop asks of the window, checked before the window
// hears of it: a search only with an instrument and a product the catalogue has and filters the product takes; a
// campaign file only from the observatory's servers (or the server in use), over a size cap. The answer fills Browse
// or opens the import form: nothing is downloaded or written until the user says so there.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OpenRequest } from '../../../src-shared/contract/contract';
import { CAMPAIGN_FILE_SUFFIX, parseAppLink } from '../../../src-shared/links/app-link';
import { checkFilters } from '../../../src-shared/filters/filter-rules';
import { displayName } from '../../../src-shared/format/display-text';
import type { MlsoClient } from '../api/mlso-client';
import { toErrorData } from '../errors';
import { openRegularFile } from '../files/regular-file';

export type OpenCheck = { ok: true; request: OpenRequest } | { ok: false; message: string };

/** Larger shared files (a file list of hundreds of thousands) are imported with `mlso-dl campaign import`. */
export const MAX_OPENED_CAMPAIGN_BYTES = 64 * 1024 * 1024;

/** The observatory's own web servers, whose pages may hand the app a campaign file (and their sub-domains). */
const OBSERVATORY_DOMAINS = ['mlso.ucar.edu', 'hao.ucar.edu'] as const;

const FETCH_TIMEOUT_MS = 30_000;

export interface OpenRequestDeps {
  client: MlsoClient;
  /** The API server in use: a campaign file may come from it too (the demo server serves none, but a mirror may). */
  serverUrl(): string;
}

export async function openRequestFromLink(text: string, deps: OpenRequestDeps): Promise<OpenCheck> {
  const parsed = parseAppLink(text);
  if (!parsed.ok) return parsed;
  const { link } = parsed;
  if (link.kind === 'import') return campaignFromAddress(link.url, deps);
  try {
    const instruments = await deps.client.instrumentIds();
    if (!instruments.includes(link.query.instrument)) {
      return refused(`the observatory has no instrument "${displayName(link.query.instrument)}".`);
    }
    const products = (await deps.client.products(link.query.instrument)).products.map((product) => product.id);
    if (!products.includes(link.query.product)) {
      return refused(`${link.query.instrument} has no product "${displayName(link.query.product)}".`);
    }
    const metadata = await deps.client.productMetadata(link.query.instrument, link.query.product);
    const checked = checkFilters(link.query.filters, metadata.filters, `${link.query.instrument} ${link.query.product}`);
    if (!checked.ok) return refused(checked.problems[0]!.message);
    return { ok: true, request: { kind: 'search', query: { ...link.query, filters: checked.query } } };
  } catch (error) {
    return refused(`the catalogue could not be read to check it (${toErrorData(error).message})`);
  }
}

/** A campaign file the desktop opened (a double-click, or the file handed to a second instance). */
export async function openRequestFromFile(file: string): Promise<OpenCheck> {
  if (!file.endsWith(CAMPAIGN_FILE_SUFFIX))
    return { ok: false, message: `${displayName(path.basename(file))} is not a campaign file (*${CAMPAIGN_FILE_SUFFIX}).` };
  try {
    const { handle, stats } = await openRegularFile(file);
    try {
      if (stats.size > MAX_OPENED_CAMPAIGN_BYTES) return { ok: false, message: tooLarge(displayName(file)) };
      return { ok: true, request: { kind: 'import', source: file, text: await readFile(handle, 'utf8') } };
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, message: `${displayName(file)} could not be read: ${error instanceof Error ? error.message : String(error)}.` };
  }
}

/** Whether a campaign file may be fetched from this address: https on the observatory's servers, or the server in use. */
export function mayFetchCampaignFrom(url: URL, serverUrl: string): boolean {
  if (url.origin === new URL(serverUrl).origin) return true;
  const host = url.hostname.toLowerCase();
  return url.protocol === 'https:' && OBSERVATORY_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

async function campaignFromAddress(address: string, deps: OpenRequestDeps): Promise<OpenCheck> {
  const url = new URL(address);
  if (!mayFetchCampaignFrom(url, deps.serverUrl())) {
    return refused(`${displayName(url.host)} is not one of the observatory's servers; download the file and open it instead.`);
  }
  try {
    // No redirects: one could lead anywhere, past the rule above.
    const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (!response.ok) return refused(`the server answered ${response.status} for the campaign file.`);
    const text = await cappedText(response);
    if (text === null) return refused(tooLarge('the campaign file'));
    return { ok: true, request: { kind: 'import', source: url.href, text } };
  } catch (error) {
    return refused(`the campaign file could not be fetched (${error instanceof Error ? error.message : String(error)}).`);
  }
}

/** The body as text, or null once it passes the cap (the rest is not read). */
async function cappedText(response: Response): Promise<string | null> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_OPENED_CAMPAIGN_BYTES) {
    await response.body?.cancel();
    return null;
  }
  const pieces: Uint8Array[] = [];
  let size = 0;
  if (!response.body) return '';
  for await (const piece of response.body) {
    size += piece.byteLength;
    if (size > MAX_OPENED_CAMPAIGN_BYTES) return null;
    pieces.push(piece);
  }
  return Buffer.concat(pieces).toString('utf8');
}

function refused(why: string): OpenCheck {
  return { ok: false, message: `This link was not opened: ${why}` };
}

function tooLarge(what: string): string {
  return `${what} is over ${MAX_OPENED_CAMPAIGN_BYTES / 1024 / 1024} MB; import it with mlso-dl campaign import.`;
}
