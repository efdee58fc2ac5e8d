// The JSON endpoints of the API: about, instruments, products, product metadata, file listings, authenticate.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { INSTRUMENTS, findInstrument, findProduct, type InstrumentDefinition, type ProductDefinition } from './instruments';
import { applyFileFilters, parseFileFilters } from './file-filters';
import { requestOrigin, sendError, sendJson, sendJsonText } from './http-replies';
import { sendEndlessListing, type ListingEntry } from './endless-listing';
import type { EmulatorContext } from './emulator-context';
import type { FileRecord } from './catalog';
import { DEMO_EMAIL_HEADER } from '../../src-shared/api/service-facts';

const REGISTRATION_URL = 'https://registration.hao.ucar.edu';

export function handleAbout(res: ServerResponse): void {
  sendJson(res, 200, {
    documentation: 'https://mlso-api-client.readthedocs.io/en/latest/',
    homepage: 'https://www2.hao.ucar.edu/mlso',
    support: 'mlso_data_requests@ucar.edu',
    version: '1.0.0',
  });
}

export function handleInstruments(res: ServerResponse): void {
  sendJson(
    res,
    200,
    INSTRUMENTS.map((instrument) => instrument.id),
  );
}

/** The instrument, or undefined after answering 404 naming the id. */
function instrumentOr404(res: ServerResponse, id: string): InstrumentDefinition | undefined {
  const instrument = findInstrument(id);
  if (!instrument) sendError(res, 404, `instrument "${id}" not found; known instruments: ${INSTRUMENTS.map((i) => i.id).join(', ')}`);
  return instrument;
}

function productOr404(res: ServerResponse, instrument: InstrumentDefinition, id: string): ProductDefinition | undefined {
  const product = findProduct(instrument, id);
  if (!product) sendError(res, 404, `product "${id}" not found for instrument "${instrument.id}"`);
  return product;
}

export function handleInstrument(ctx: EmulatorContext, res: ServerResponse, id: string): void {
  const instrument = instrumentOr404(res, id);
  if (!instrument) return;
  sendJson(res, 200, {
    dates: { 'end-date': ctx.catalog().endDate(instrument), 'start-date': instrument.startDate },
    doi: instrument.doi,
    'landing-page': instrument.landingPage,
    name: instrument.name,
  });
}

export function handleProducts(res: ServerResponse, id: string): void {
  const instrument = instrumentOr404(res, id);
  if (!instrument) return;
  sendJson(res, 200, {
    products: instrument.products.map((p) => ({ description: p.description, id: p.id, title: p.title })),
  });
}

export function handleProduct(res: ServerResponse, instrumentId: string, productId: string): void {
  const instrument = instrumentOr404(res, instrumentId);
  const product = instrument && productOr404(res, instrument, productId);
  if (!product) return;
  sendJson(res, 200, {
    description: product.description,
    filters: [...product.filters],
    formats: ['fits'],
    id: product.id,
    title: product.title,
  });
}

export async function handleFiles(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  instrumentId: string,
  productId: string,
): Promise<void> {
  const instrument = instrumentOr404(res, instrumentId);
  const product = instrument && productOr404(res, instrument, productId);
  if (!instrument || !product) return;
  const parsed = parseFileFilters(query, instrument, product);
  if (!parsed.ok) return sendError(res, 400, parsed.message);
  res.once('close', ctx.stats.listingInFlight());

  const catalog = ctx.catalog();
  const files = applyFileFilters(catalog.files(instrument, product.id), parsed.filters);
  const origin = ctx.options().publicBaseUrl?.replace(/\/+$/, '') ?? requestOrigin(req, ctx.listenAddress());
  // The client name sent here comes back inside every download URL (API when none was sent).
  const client = encodeURIComponent(query.get('client') ?? 'API');
  const downloadPrefix = `${origin}/v1/download?obsday-id=`;
  const middle = `&client=${client}&instrument=${instrument.id}&filename=`;

  let total = 0;
  const entryOf = (file: FileRecord): ListingEntry => fileEntry(file, `${downloadPrefix}${file.obsdayId}${middle}${encodeURIComponent(file.filename)}.gz`);
  const entries = files.map((file) => {
    total += file.filesize;
    return entryOf(file);
  });
  const endDate = query.get('end-date') ?? catalog.endDate(instrument);
  const endless = ctx.options().endlessListing;
  if (endless !== 'off') {
    // Made-up entries continue from the last one listed (or from the product's last file when none matched).
    const last = files.at(-1) ?? catalog.files(instrument, product.id).at(-1);
    if (last) return sendEndlessListing(res, endless, endDate, entries, entryOf(last), ctx.stats);
  }
  const listing: Record<string, unknown> = {
    'end-date': endDate,
    files: entries,
    instrument: instrument.id,
    product: product.id,
    'start-date': query.get('start-date') ?? instrument.startDate,
    total_filesize: total,
  };
  const transform = ctx.transformListing();
  const text = `${JSON.stringify(transform ? transform(listing) : listing)}\n`;
  if (sendJsonText(res, 200, text)) ctx.stats.listingBytes(Buffer.byteLength(text));
}

/** Keys in sorted order, as the service's JSON has them; UCoMP files carry their observing metadata too. */
function fileEntry(file: FileRecord, url: string): ListingEntry {
  if (file.instrument !== 'ucomp') {
    return { 'date-obs': file.dateObs, filename: file.filename, filesize: file.filesize, instrument: file.instrument, product: file.product, url };
  }
  return {
    'date-obs': file.dateObs,
    filename: file.filename,
    filesize: file.filesize,
    instrument: file.instrument,
    'obs-plan': file.obsPlan,
    product: file.product,
    url,
    'wave-region': file.waveRegion,
    wavelengths: file.wavelengths,
  };
}

export function handleAuthenticate(ctx: EmulatorContext, res: ServerResponse, query: URLSearchParams): void {
  const username = query.get('username');
  if (username === null || username === '') {
    ctx.stats.authentication(false);
    return sendError(res, 400, `missing required parameter "username" (a registered e-mail address; sign up at ${REGISTRATION_URL})`);
  }
  const options = ctx.options();
  if (!options.registeredEmails.includes(username)) {
    ctx.stats.authentication(false);
    // A header value cannot carry control characters or spaces: an e-mail set through the control API with one is not named.
    const demoEmail = options.registeredEmails.find((email) => /^[\x21-\x7e]+$/.test(email));
    const headers = demoEmail === undefined ? {} : { [DEMO_EMAIL_HEADER]: demoEmail };
    return sendError(res, 404, `username ${username} not found, sign up at ${REGISTRATION_URL}`, headers);
  }
  ctx.stats.authentication(true);
  const cookie = ctx.sessions.open(username, options.sessionLifetimeSeconds);
  sendJson(res, 200, { message: `found username ${username}` }, { 'Set-Cookie': cookie });
}
