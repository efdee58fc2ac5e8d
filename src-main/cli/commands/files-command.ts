// `files`: list a product's files with filters, and with --download fetch them into a folder.
import type { FileEntry, FileListing } from '../../../src-shared/api/schemas';
import { REGISTRATION_URL } from '../../../src-shared/api/service-facts';
import type { CliContext } from '../cli-context';
import { filtersFrom, type FilterOptions } from '../filter-options';
import { reuseByOf, type EngineOptions } from '../engine-options';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../exit-codes';
import { StreamedFilesTable } from '../output/streamed-files-table';
import { StreamedListingJson } from '../output/streamed-listing-json';
import type { FilesRequest } from '../../core/api/mlso-client';
import { downloadListing } from './download-listing';
import type { ExistingFilePolicy } from '../../core/downloads/existing-files';
import { defaultStateFolder } from '../../core/state/state-folder';

/** The filter options (see filter-options.ts), the engine options (engine-options.ts) and the files command's own. */
export interface FilesOptions extends FilterOptions, EngineOptions {
  instrument: string;
  product: string;
  download?: boolean;
  username?: string;
  outputDir: string;
  stateDir?: string;
  onExisting: ExistingFilePolicy;
  json?: boolean;
  /** With --download: wait for the program holding the state folder to finish, instead of stopping with status 75. */
  wait?: boolean;
}

export async function filesCommand(context: CliContext, options: FilesOptions): Promise<number> {
  if (options.download && !options.username?.trim()) {
    throw new UsageError(`Downloading needs the e-mail you registered with the observatory: add -u/--username EMAIL (register at ${REGISTRATION_URL}).`);
  }
  const request: FilesRequest = { instrument: options.instrument, product: options.product, filters: filtersFrom(options) };
  if (options.download) {
    if (options.allowOtherHosts) context.client.configure({ allowOtherHosts: true });
    return downloadListing(context, request, {
      username: options.username!.trim(),
      outputDir: options.outputDir,
      stateDir: options.stateDir ?? defaultStateFolder(),
      concurrency: options.concurrency,
      maxAttempts: options.retries + 1,
      retryDelayMs: options.retryDelay * 1000,
      existingFiles: options.onExisting,
      reuseBy: reuseByOf(options),
      rateLimit: options.limitRate ?? null,
      json: Boolean(options.json),
      wait: Boolean(options.wait),
    });
  }
  return printListing(context, request, Boolean(options.json));
}

/**
 * The listing without --download, JSON or table, written entry by entry as it arrives and at the pace stdout
 * takes it, so memory holds a batch rather than the listing. A listing that fails midway gets no closing part
 * (no total line, no closing brace): what was written is never taken for a complete listing.
 */
async function printListing(context: CliContext, request: FilesRequest, json: boolean): Promise<number> {
  const { out, signal } = context;
  const format: { add(entries: readonly FileEntry[]): string; end(listing: FileListing): string } = json
    ? new StreamedListingJson()
    : new StreamedFilesTable({ header: !out.quiet });
  try {
    const { listing, count } = await context.client.streamFiles(request, (entries) => out.resultPart(format.add(entries), signal), { signal });
    await out.resultPart(format.end(listing), signal);
    if (json) return EXIT_OK;
    if (count === 0) out.info('No files match these filters.');
    // The answer's own echo of the query follows the table: it is complete only once the entries have all arrived.
    describeQuery(context, listing);
    return EXIT_OK;
  } catch (error) {
    // A reader that left (`| head -1`) has seen enough; a failed stdout is reported by the process's own watcher.
    const stop = out.resultStop;
    if (stop !== undefined) return stop === 'reader-left' ? EXIT_OK : EXIT_FAILURE;
    throw error;
  }
}

function describeQuery(context: CliContext, listing: FileListing): void {
  context.out.detail(`Instrument : ${listing.instrument}`);
  context.out.detail(`Product    : ${listing.product}`);
  context.out.detail(`Start date : ${listing['start-date'] ?? '(none)'}`);
  context.out.detail(`End date   : ${listing['end-date'] ?? '(none)'}`);
}
