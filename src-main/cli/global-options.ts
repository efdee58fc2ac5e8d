// The options that come before the command, and the server they choose. A leaf module: the program's
// definition reads it at start-up, before any command has loaded the client.

/** Where `--local` points, as in the official clients: a server run on this computer. */
export const LOCAL_BASE_URL = 'http://127.0.0.1:5000';

export interface GlobalOptions {
  baseUrl: string;
  /** --local: the server on this computer, whatever --base-url says (as mlsoapi does). */
  local?: boolean;
  apiVersion: string;
  clientName: string;
  /** Seconds a catalogue answer may take in all (--listing-timeout). */
  listingTimeout: number;
  /** Bytes a catalogue answer may hold (--max-listing-size). */
  maxListingSize: number;
  /** --proxy: a proxy's address, or "direct"; unset, the environment's proxy variables decide. */
  proxy?: string;
  verbose?: boolean;
  quiet?: boolean;
}

/** The base URL the run talks to. */
export function chosenBaseUrl(options: Pick<GlobalOptions, 'baseUrl' | 'local'>): string {
  return options.local ? LOCAL_BASE_URL : options.baseUrl;
}
