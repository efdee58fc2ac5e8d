// The settings every front end hands to the core client.
import { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME } from '../../../src-shared/api/service-facts';
import { DEFAULT_LISTING_TIMEOUT_MINUTES, DEFAULT_MAX_LISTING_MEGABYTES } from '../../../src-shared/settings/default-settings';
import { InvalidInputError } from '../errors';
import { proxyChoiceOf } from '../network/proxy-setting';

export interface ClientSettings {
  /** Scheme and host of the service, e.g. http://api.mlso.ucar.edu. */
  baseUrl: string;
  /** Path segment of the API version, e.g. v1. */
  apiVersion: string;
  /** Sent as the `client` query value on the files endpoint. */
  clientName: string;
  /** Milliseconds of silence allowed: waiting for an answer to start, and between two chunks of it. */
  timeoutMs: number;
  /** Milliseconds a whole catalogue answer may take, redirects and body included (the file listing is the big one). */
  listingDeadlineMs: number;
  /** Bytes a catalogue answer may hold, counted as sent and again once decompressed (gzip may inflate). */
  maxListingBytes: number;
  /** Download files whose address (listed, or a redirect) is on another server than the API's; never with the session cookie. */
  allowOtherHosts: boolean;
  /** The proxy: '' for the environment's variables, 'direct', 'system' (the desktop app's), or a proxy's address. */
  proxy: string;
}

export const DEFAULT_CLIENT_SETTINGS: ClientSettings = {
  baseUrl: DEFAULT_BASE_URL,
  apiVersion: DEFAULT_API_VERSION,
  clientName: DEFAULT_CLIENT_NAME,
  timeoutMs: 60_000,
  listingDeadlineMs: DEFAULT_LISTING_TIMEOUT_MINUTES * 60_000,
  maxListingBytes: DEFAULT_MAX_LISTING_MEGABYTES * 1024 * 1024,
  allowOtherHosts: false,
  proxy: '',
};

/** Checks and tidies settings typed by a person (a trailing slash on the URL, spaces, a "/v1" pasted into the base URL). */
export function normaliseSettings(partial: Partial<ClientSettings>): ClientSettings {
  const settings = { ...DEFAULT_CLIENT_SETTINGS, ...partial };
  let parsed: URL;
  try {
    parsed = new URL(settings.baseUrl.trim());
  } catch {
    throw new InvalidInputError(`"${settings.baseUrl}" is not a server address: use a URL such as ${DEFAULT_BASE_URL}.`, 'baseUrl');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new InvalidInputError(`"${settings.baseUrl}" is not an http or https address: use a URL such as ${DEFAULT_BASE_URL}.`, 'baseUrl');
  }
  const apiVersion = settings.apiVersion.trim().replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._-]+$/.test(apiVersion)) {
    throw new InvalidInputError(`API version "${settings.apiVersion}" is not valid: use a path segment such as ${DEFAULT_API_VERSION}.`, 'apiVersion');
  }
  let path = parsed.pathname.replace(/\/+$/, '');
  // People paste the versioned address from the documentation; the version is its own setting.
  if (path.endsWith(`/${apiVersion}`)) path = path.slice(0, -(apiVersion.length + 1));
  const clientName = settings.clientName.trim();
  if (clientName.length === 0) throw new InvalidInputError('The client name must not be empty.', 'clientName');
  requirePositive(settings.timeoutMs, 'The answer timeout');
  requirePositive(settings.listingDeadlineMs, 'The listing time limit');
  requirePositive(settings.maxListingBytes, 'The listing size limit');
  // Only a real true opens the fence: a value of the wrong type keeps it shut.
  const allowOtherHosts = settings.allowOtherHosts === true;
  if (typeof settings.proxy !== 'string') throw new InvalidInputError('The proxy must be an address, "direct", "system" or empty.', 'proxy');
  proxyChoiceOf(settings.proxy);
  return { ...settings, baseUrl: `${parsed.origin}${path}`, apiVersion, clientName, allowOtherHosts, proxy: settings.proxy.trim() };
}

function requirePositive(value: unknown, label: string): void {
  // A zero, negative or endless limit would be no limit at all (or no answer ever).
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new InvalidInputError(`${label} must be a number greater than 0.`);
}
