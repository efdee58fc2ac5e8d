// `files`: list a product's files with filters, and with --download fetch them into a folder.
import type { FileListing } from '../../../src-shared/api/schemas';
import type { FileFilters } from '../../../src-shared/filters/filter-rules';
import { REGISTRATION_URL } from '../../../src-shared/api/service-facts';
import { printJson, type CliContext } from '../cli-context';
import { EXIT_OK, UsageError } from '../exit-codes';
import { filesTable } from '../output/tables';
import { downloadListing } from './download-listing';
import type { ExistingFilePolicy } from '../../core/downloads/existing-files';
import { defaultStateFolder } from '../../core/downloads/open-engine';

export interface FilesOptions {
  instrument: string;
  product: string;
  waveRegion?: string;
  obsPlan?: string;
  startDate?: string;
  endDate?: string;
  carringtonRotation?: string;
  cr?: string;
  every?: string;
  download?: boolean;
  username?: string;
  outputDir: string;
  stateDir?: string;
  concurrency: number;
  retries: number;
  retryDelay: number;
  onExisting: ExistingFilePolicy;
  json?: boolean;
}

export function filtersFrom(options: FilesOptions): FileFilters {
  return {
    'start-date': options.startDate,
    'end-date': options.endDate,
    cr: options.carringtonRotation ?? options.cr,
    every: options.every,
    'wave-region': options.waveRegion,
    'obs-plan': options.obsPlan,
  };
}

export async function filesCommand(context: CliContext, options: FilesOptions): Promise<number> {
  if (options.download && !options.username?.trim()) {
    throw new UsageError(`Downloading needs the e-mail you registered with the observatory: add -u/--username EMAIL (register at ${REGISTRATION_URL}).`);
  }
  const listing = await context.client.files(
    { instrument: options.instrument, product: options.product, filters: filtersFrom(options) },
    { signal: context.signal },
  );
  if (options.download) {
    return downloadListing(context, listing.files, {
      username: options.username!.trim(),
      outputDir: options.outputDir,
      stateDir: options.stateDir ?? defaultStateFolder(),
      concurrency: options.concurrency,
      maxAttempts: options.retries + 1,
      retryDelayMs: options.retryDelay * 1000,
      existingFiles: options.onExisting,
      json: Boolean(options.json),
    });
  }
  if (options.json) {
    printJson(context.out, listing);
    return EXIT_OK;
  }
  describeQuery(context, listing);
  if (listing.files.length === 0) context.out.info('No files match these filters.');
  else context.out.result(filesTable(listing.files));
  return EXIT_OK;
}

function describeQuery(context: CliContext, listing: FileListing): void {
  context.out.detail(`Instrument : ${listing.instrument}`);
  context.out.detail(`Product    : ${listing.product}`);
  context.out.detail(`Start date : ${listing['start-date'] ?? '(none)'}`);
  context.out.detail(`End date   : ${listing['end-date'] ?? '(none)'}`);
}
