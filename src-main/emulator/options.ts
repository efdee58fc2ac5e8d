// The emulator's knobs: defaults, validation, and which knobs reshape the synthetic catalogue.

import { DEMO_EMAIL } from '../../src-shared/api/service-facts';

/** Registered by default so the demo and the tests can authenticate without setup (shared with the app's hints). */
export { DEMO_EMAIL };

type BodyForm = 'gzip-body' | 'content-encoding' | 'alternate';

/**
 * A files endpoint that never finishes its answer (a fault, off by default): after the real entries it sends made-up
 * ones as fast as the client reads (`flood`) or one every 100 ms (`trickle`), or it falls silent and never closes.
 */
const ENDLESS_LISTINGS = ['off', 'flood', 'trickle', 'silent'] as const;
export type EndlessListing = (typeof ENDLESS_LISTINGS)[number];

export interface EmulatorOptions {
  host: string;
  port: number;
  lastDay: string;
  days: number;
  cadenceSeconds: number;
  imageSize: number;
  /**
   * Width of UCoMP images, whose height is four fifths of it (1280 x 1024, as real ones are); 0 means the same as
   * `imageSize`. 1280 makes level 2 files ~31.5 MB, as real ones are.
   */
  ucompImageSize: number;
  latencyMs: number;
  bandwidthBytesPerSecond: number;
  failureRate: number;
  resetRate: number;
  sessionLifetimeSeconds: number;
  registeredEmails: string[];
  bodyForm: BodyForm;
  gzipMembers: number;
  zeroFilesizeRate: number;
  unauthenticatedStatus: 401 | 403;
  redirectStatus: 301 | 302 | 307 | 308;
  endlessListing: EndlessListing;
  /** Honour Range requests on downloads (206 with part of the body); off, every download is sent whole (200). */
  byteRanges: boolean;
  seed: number;
  publicBaseUrl?: string;
}

export const DEFAULT_EMULATOR_OPTIONS: EmulatorOptions = Object.freeze({
  host: '127.0.0.1',
  port: 0,
  lastDay: '2025-03-24',
  days: 5,
  cadenceSeconds: 15,
  imageSize: 256,
  ucompImageSize: 0,
  latencyMs: 0,
  bandwidthBytesPerSecond: 0,
  failureRate: 0,
  resetRate: 0,
  sessionLifetimeSeconds: 86400,
  registeredEmails: Object.freeze([DEMO_EMAIL]) as string[],
  bodyForm: 'alternate',
  gzipMembers: 1,
  zeroFilesizeRate: 0.05,
  unauthenticatedStatus: 401,
  redirectStatus: 308,
  endlessListing: 'off',
  byteRanges: true,
  seed: 1,
}) as EmulatorOptions;

/** Changing one of these changes which files exist or what the listing says about them. */
export const CATALOG_SHAPING_KEYS = ['lastDay', 'days', 'cadenceSeconds', 'imageSize', 'ucompImageSize', 'zeroFilesizeRate', 'seed'] as const;

// A generous ceiling: 16384² float32 is already 1 GiB per file.
const MAX_IMAGE_SIZE = 16384;

type Check = (value: unknown) => string | null;

const integerIn =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? null : `an integer from ${min} to ${max}`;
const numberIn =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? null : `a number from ${min} to ${max}`;
const oneOf =
  (values: readonly unknown[]): Check =>
  (v) =>
    values.includes(v) ? null : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;

const CHECKS: Record<keyof EmulatorOptions, Check> = {
  host: (v) => (typeof v === 'string' && v.length > 0 ? null : 'a non-empty host name or address'),
  port: integerIn(0, 65535),
  lastDay: (v) => (typeof v === 'string' && isCalendarDay(v) ? null : 'a calendar day written YYYY-MM-DD'),
  days: integerIn(1, 36600),
  cadenceSeconds: integerIn(1, 86400),
  imageSize: integerIn(1, MAX_IMAGE_SIZE),
  ucompImageSize: integerIn(0, MAX_IMAGE_SIZE),
  latencyMs: numberIn(0, 600_000),
  bandwidthBytesPerSecond: numberIn(0, Number.MAX_SAFE_INTEGER),
  failureRate: numberIn(0, 1),
  resetRate: numberIn(0, 1),
  sessionLifetimeSeconds: numberIn(0, 10 * 365 * 86400),
  registeredEmails: (v) => (Array.isArray(v) && v.every((e) => typeof e === 'string') ? null : 'an array of e-mail address strings'),
  bodyForm: oneOf(['gzip-body', 'content-encoding', 'alternate']),
  gzipMembers: integerIn(1, 1024),
  zeroFilesizeRate: numberIn(0, 1),
  unauthenticatedStatus: oneOf([401, 403]),
  redirectStatus: oneOf([301, 302, 307, 308]),
  endlessListing: oneOf(ENDLESS_LISTINGS),
  byteRanges: oneOf([true, false]),
  seed: (v) => (typeof v === 'number' && Number.isSafeInteger(v) ? null : 'a safe integer'),
  publicBaseUrl: (v) =>
    v === undefined || (typeof v === 'string' && /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(v)) ? null : 'an absolute http(s) URL without query, or undefined',
};

function isCalendarDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

/** Throws with a message naming the first bad knob; unknown knobs are errors too (typos must not pass silently). */
export function validateOptionsPatch(patch: Record<string, unknown>): Partial<EmulatorOptions> {
  for (const [key, value] of Object.entries(patch)) {
    const check = (CHECKS as Record<string, Check | undefined>)[key];
    if (!check) throw new Error(`unknown emulator option "${key}"`);
    const problem = check(value);
    if (problem) throw new Error(`emulator option "${key}" must be ${problem}, got ${JSON.stringify(value)}`);
  }
  return patch as Partial<EmulatorOptions>;
}

export function resolveOptions(partial: Partial<EmulatorOptions> = {}): EmulatorOptions {
  // Drop explicit undefineds so they do not erase defaults (publicBaseUrl is the one optional knob).
  const given = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined));
  validateOptionsPatch(given);
  const merged = { ...DEFAULT_EMULATOR_OPTIONS, ...given } as EmulatorOptions;
  merged.registeredEmails = [...merged.registeredEmails];
  return merged;
}
