// What every command gets: a configured client and the output channels.
import { MlsoClient, type ListingAdvice } from '../core/api/mlso-client';
import { CliOutput } from './output/cli-output';
import { chosenBaseUrl, type GlobalOptions } from './global-options';

export type { GlobalOptions } from './global-options';

export interface CliIo {
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Cancels whatever the command is doing (Ctrl-C). */
  signal?: AbortSignal;
}

export interface CliContext {
  client: MlsoClient;
  out: CliOutput;
  signal?: AbortSignal;
}

/** The command line's way to let downloads from other servers in (files --download, campaign sync). */
const CLI_OTHER_SERVERS_ADVICE = 'add --allow-other-hosts';

/** The command line's way to narrow a search or raise a listing limit. */
const CLI_LISTING_ADVICE: ListingAdvice = {
  tooLarge: 'narrow the search (dates, --every) or raise the limit with --max-listing-size',
  tooSlow: 'try again later, narrow the search (dates, --every) or raise the limit with --listing-timeout',
};

export function createContext(options: GlobalOptions, io: CliIo): CliContext {
  const out = new CliOutput({
    quiet: Boolean(options.quiet),
    verbose: Boolean(options.verbose),
    ...(io.stdout ? { stdout: io.stdout } : {}),
    ...(io.stderr ? { stderr: io.stderr } : {}),
  });
  const client = new MlsoClient(
    {
      baseUrl: chosenBaseUrl(options),
      apiVersion: options.apiVersion,
      clientName: options.clientName,
      listingDeadlineMs: options.listingTimeout * 1000,
      maxListingBytes: options.maxListingSize,
      ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
    },
    {
      log: (url, proxy) => out.detail(`GET ${url}${proxy ? ` through the proxy ${proxy}` : ''}`),
      listingAdvice: CLI_LISTING_ADVICE,
      otherServersAdvice: CLI_OTHER_SERVERS_ADVICE,
    },
  );
  return { client, out, signal: io.signal };
}
