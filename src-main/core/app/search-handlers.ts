// Browse's search behind the contract: the core keeps the rows (search-keeper.ts) and the window reads pages.
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import type { SearchKeeper } from '../search/search-keeper';

export function searchHandlers(searches: SearchKeeper): Pick<ContractHandlers, 'search:start' | 'search:page' | 'search:timeline' | 'search:cancel'> {
  return {
    'search:start': (query) => searches.firstRows(searches.start(query).searchId),
    'search:page': (request) => searches.page(request),
    'search:timeline': ({ searchId }) => searches.timeline(searchId),
    'search:cancel': ({ searchId }) => searches.cancel(searchId),
  };
}
