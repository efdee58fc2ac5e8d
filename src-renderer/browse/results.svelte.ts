// The last listing and what is selected in it. Listings can hold 100,000 files, so they are kept as raw
// (non-proxied) state and summarised once when they arrive, never on every render.
import type { FileEntry } from '../../src-shared/api/schemas';
import type { EnqueueSummary, FilesQuery, KeptFileListing } from '../../src-shared/contract/contract';
import { searchedRange } from '../../src-shared/coverage/searched-range';
import { coverageBins, type TimelineBins } from '../../src-shared/coverage/timeline-bins';
import type { ErrorData } from '../../src-shared/errors';
import { listingTotal } from '../../src-shared/format/human-size';
import { campaignQueryOf, describeFilters, sameQuery } from '../campaigns/campaign-text';
import { columnsShown, type ListingColumn } from '../../src-shared/listing/listing-columns';
import type { ApiClient } from '../lib/api';
import { dayOf } from '../lib/format';
import { Request } from '../lib/request.svelte';
import { RowSelection } from './row-selection.svelte';

export interface ListingSummary {
  count: number;
  /** "2.9 GB", or "≥ 2.9 GB" when some sizes are unknown. */
  totalText: string;
  lowerBound: boolean;
  firstDay: string | null;
  lastDay: string | null;
  /** The listing's columns: the optional ones (UCoMP's wave region, say) only when some file has a value for them. */
  columns: readonly ListingColumn[];
}

function summarise(files: readonly FileEntry[]): ListingSummary {
  let first: string | null = null;
  let last: string | null = null;
  for (const file of files) {
    const dateObs = file['date-obs'];
    if (first === null || dateObs < first) first = dateObs;
    if (last === null || dateObs > last) last = dateObs;
  }
  const total = listingTotal(files.map((file) => file.filesize));
  return {
    count: files.length,
    totalText: total.text,
    lowerBound: total.lowerBound,
    firstDay: first === null ? null : dayOf(first),
    lastDay: last === null ? null : dayOf(last),
    columns: columnsShown(files),
  };
}

/** The listing's files per time bin across the range searched, for the coverage timeline; null when none were found. */
function listingTimeline(query: FilesQuery, files: readonly FileEntry[]): TimelineBins | null {
  if (files.length === 0) return null;
  const dateObs = files.map((file) => file['date-obs']);
  const range = searchedRange(query.filters, dateObs);
  return range ? coverageBins(dateObs, range) : null;
}

export type EnqueueOutcome = { summary: EnqueueSummary; requested: number } | { error: ErrorData };

export class ResultsStore {
  listing = $state.raw<KeptFileListing | null>(null);
  summary = $state.raw<ListingSummary | null>(null);
  /** The listing binned in time, once when it arrives. */
  timeline = $state.raw<TimelineBins | null>(null);
  /** The query of the listing on screen: a search that fails or is cancelled leaves it as it was. */
  query = $state.raw<FilesQuery | null>(null);
  /** The query of the search running, or of the last one started. */
  searchedFor = $state.raw<FilesQuery | null>(null);
  /**
   * The listing no longer answers what the form asks (another product, other dates, a search that failed): it is
   * shown dimmed and cannot be downloaded or saved until the search runs again. The form's query is the request
   * Search would send, so one rule (the search's own normalisation, then sameQuery) decides.
   */
  readonly stale = $derived.by(() => {
    if (!this.listing || !this.query) return false;
    const asked = this.formQuery();
    return asked === null || !sameQuery(campaignQueryOf(asked), campaignQueryOf(this.query));
  });
  selection = new RowSelection();
  /** What the last "Download" did, shown until dismissed or the next search. */
  enqueueOutcome = $state.raw<EnqueueOutcome | null>(null);

  private readonly client: ApiClient;
  private readonly formQuery: () => FilesQuery | null;
  /** The search whose answer is still wanted; a cancelled or superseded search's answer is dropped. */
  private readonly searchRequest = new Request<KeptFileListing>();
  private readonly enqueueRequest = new Request<EnqueueSummary>();
  /** How many files the Download in flight hands to the queue. */
  private enqueueRequested = $state(0);

  /** `formQuery` is what Search would send now (null while the form cannot send one); without a form, the listing's own. */
  constructor(client: ApiClient, formQuery: () => FilesQuery | null = () => this.query) {
    this.client = client;
    this.formQuery = formQuery;
  }

  get searching(): boolean {
    return this.searchRequest.loading;
  }

  /** Why the last search failed, in the service's words. */
  get error(): ErrorData | null {
    return this.searchRequest.error;
  }

  /** How many files are being handed to the queue right now (0 when idle). */
  get enqueueing(): number {
    return this.enqueueRequest.loading ? this.enqueueRequested : 0;
  }

  get files(): readonly FileEntry[] {
    return this.listing?.files ?? [];
  }

  async search(query: FilesQuery): Promise<void> {
    this.enqueueOutcome = null;
    this.searchedFor = query;
    const result = await this.searchRequest.run(() => this.client.invoke('catalog:files', query));
    if (!result?.ok) return;
    this.query = query;
    this.listing = result.value;
    this.summary = summarise(result.value.files);
    this.timeline = listingTimeline(query, result.value.files);
    this.selection.reset(result.value.files.length);
  }

  /** The service cannot be told to stop, but the window stops waiting and keeps what it showed before. */
  cancelSearch(): void {
    this.searchRequest.cancel();
  }

  /**
   * Queues the listing's files, all or the selected rows. Only the listing's id and the rows' positions go to the
   * core, which kept the listing: a 100,000-file download does not send 100,000 entries back.
   */
  async enqueue(which: 'selected' | 'all'): Promise<EnqueueOutcome | null> {
    const listing = this.listing;
    // One Download at a time: a second press while the first is queued would queue the files twice.
    if (!listing || this.stale || this.enqueueRequest.loading) return null;
    const entries = which === 'all' ? undefined : this.selection.indices();
    const requested = entries?.length ?? listing.files.length;
    if (requested === 0) return null;
    this.enqueueRequested = requested;
    const result = await this.enqueueRequest.run(() =>
      this.client.invoke('downloads:enqueue', { listingId: listing.listingId, ...(entries ? { entries } : {}) }),
    );
    if (!result) return null;
    const outcome: EnqueueOutcome = result.ok ? { summary: result.value, requested } : { error: result.error };
    this.enqueueOutcome = outcome;
    return outcome;
  }

  /** Forgets the listing on screen (it was another server's): no file of it can be downloaded any more. */
  clear(): void {
    this.searchRequest.reset();
    this.listing = null;
    this.summary = null;
    this.timeline = null;
    this.query = null;
    this.searchedFor = null;
    this.enqueueOutcome = null;
    this.selection.reset(0);
  }

  dismissError(): void {
    this.searchRequest.error = null;
  }

  dismissOutcome(): void {
    this.enqueueOutcome = null;
  }
}

/** A query as one line: "kcor pb, 2025-03-24 UT · Every 30minutes". */
export function describeQuery(query: FilesQuery): string {
  return `${query.instrument} ${query.product}, ${describeFilters(campaignQueryOf(query).filters)}`;
}
