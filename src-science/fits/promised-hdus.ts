// What a file's primary header promises about the HDUs after it, and whether the HDUs that arrived keep the
// promise. One rule for the download guard and the check of a file on disk (FitsLayoutWalker) and for the reader
// of a file (`header`, `quicklook`, the app's viewer): a file that one of them calls cut, none calls whole.
//
// How many HDUs a file holds is declared only by the NEXTEND convention: a primary header with EXTEND = T and
// NEXTEND = n promises n extensions, so a file cut exactly where an HDU ends, or inside the padding of a data unit
// that is not the last, breaks it. Downloads (and files judged for skipping) are held to one promise more: an
// empty primary HDU (no data) that announces extensions promises at least one, since the archive serves no product
// that is a header alone. The reader does not hold a file to it: a header-only file is valid FITS (astropy writes
// EXTEND = T on every primary HDU, a lone one too), and astropy and fitsverify read it. Any other HDU boundary
// looks exactly like the end of a whole file.
import type { FitsValue } from './fits-cards';
import { FitsHeaderError } from './fits-header';

export interface HduPromise {
  /** The fewest HDUs, the primary HDU included, that keep the promise. */
  required: number;
  /** NEXTEND, when the primary header counts its extensions. */
  extensions?: number;
}

/** What any file promises before its primary header is read: the primary HDU itself. */
export const PRIMARY_ONLY: HduPromise = { required: 1 };

/**
 * The count a primary header (`cards`, its values by keyword) declares: NEXTEND with EXTEND = T. Throws
 * FitsHeaderError for a NEXTEND that is not a count: a damaged header, as a bad NAXISn is (guessing a count could
 * keep a cut file).
 */
export function declaredHdus(cards: ReadonlyMap<string, FitsValue>): HduPromise {
  if (cards.get('EXTEND') !== true) return PRIMARY_ONLY;
  const nextend = cards.get('NEXTEND');
  if (nextend === undefined) return PRIMARY_ONLY;
  if (typeof nextend !== 'number' || !Number.isSafeInteger(nextend) || nextend < 0) {
    const shown = typeof nextend === 'string' ? `'${nextend}'` : String(nextend);
    throw new FitsHeaderError(`NEXTEND = ${shown} where a whole number of at least 0 belongs`);
  }
  return { required: nextend + 1, extensions: nextend };
}

/**
 * What a download promises: the declared count, or without one, an extension after an empty primary HDU (whose
 * data unit holds `dataBytes`) that announces extensions.
 */
export function promisedDownloadHdus(cards: ReadonlyMap<string, FitsValue>, dataBytes: number): HduPromise {
  const declared = declaredHdus(cards);
  if (declared.extensions === undefined && cards.get('EXTEND') === true && dataBytes === 0) return { required: 2 };
  return declared;
}

/** Whether `hdus` whole HDUs (the primary HDU included) are as many as `promise` asks. */
export function keepsPromise(promise: HduPromise, hdus: number): boolean {
  return hdus >= promise.required;
}
