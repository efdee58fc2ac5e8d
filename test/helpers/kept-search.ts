// Browse's way to a product's files through the app core: a search the core keeps, waited on until its listing
// has ended, and its rows read back in the listing's order, for tests that queue them by the search's id.
import type { FileEntry } from '../../src-shared/api/schemas';
import type { ContractHandlers, FilesQuery } from '../../src-shared/contract/contract';
import { RESULT_PAGE_MAX_ROWS, type ResultPage, type ResultSelection, type ResultSort, type SearchProgress } from '../../src-shared/search/result-page';
import { waitFor } from './wait-for';

const LISTED: ResultSort = { key: 'listed', direction: 'ascending' };

export interface CompletedSearch {
  searchId: string;
  /** Every file listed, in the listing's order: a file's index is its position. */
  files: FileEntry[];
}

type SearchHandlers = Pick<ContractHandlers, 'search:start' | 'search:page'>;

/** Starts a search for `query` and resolves with how its listing ended: complete, or with why it stopped. */
export async function endedSearch(handlers: SearchHandlers, query: FilesQuery): Promise<SearchProgress> {
  const { searchId } = await handlers['search:start'](query);
  const progress = (): Promise<ResultPage> | ResultPage => handlers['search:page']({ searchId, offset: 0, limit: 1, sort: LISTED });
  let ended = await progress();
  await waitFor(async () => {
    ended = await progress();
    return ended.complete || ended.failure !== null;
  }, 'the search to end');
  return ended;
}

/** Starts a search for `query` and resolves once its listing is complete; rejects with why a listing stopped early. */
export async function completedSearch(handlers: SearchHandlers, query: FilesQuery): Promise<CompletedSearch> {
  const { searchId, count, failure } = await endedSearch(handlers, query);
  if (failure) throw new Error(`The search stopped early: ${failure.message}`);
  const files: FileEntry[] = [];
  while (files.length < count) {
    const page = await handlers['search:page']({ searchId, offset: files.length, limit: RESULT_PAGE_MAX_ROWS, sort: LISTED });
    for (const row of page.rows) files.push(row.entry);
  }
  return { searchId, files };
}

/** A selection of the files at these listing positions, as the window sends it in the listing's own order. */
export function positionsChosen(...positions: number[]): ResultSelection {
  return { sort: LISTED, ranges: positions.map((position) => ({ first: position, last: position })) };
}
