// Browse's search behind the contract: the core keeps the rows (search-keeper.ts) and the window reads pages.
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import { downloadedFrames, type DownloadedFrame } from '../../../src-shared/downloads/downloaded-frames';
import type { DownloadEngine } from '../downloads/download-engine';
import type { DownloadLedger } from '../downloads/download-ledger';
import { finishedIds } from '../downloads/job-pages';
import type { SearchKeeper } from '../search/search-keeper';

type SearchChannels = 'search:start' | 'search:page' | 'search:positions' | 'search:timeline' | 'search:downloaded' | 'search:cancel';

export function searchHandlers(searches: SearchKeeper, engine: DownloadEngine, ledger: DownloadLedger): Pick<ContractHandlers, SearchChannels> {
  return {
    'search:start': (query) => searches.firstRows(searches.start(query).searchId),
    'search:page': (request) => searches.page(request),
    'search:positions': (request) => searches.positions(request),
    'search:timeline': ({ searchId }) => searches.timeline(searchId),
    'search:downloaded': async ({ searchId }) => {
      // The player's frames, found a chunk of names at a time with the window's own rule (downloaded-frames.ts).
      const frames: DownloadedFrame[] = [];
      for await (const listed of searches.names(searchId)) {
        const jobs = engine.viewsOf(
          finishedIds(
            ledger,
            listed.map((row) => row.filename),
          ),
        );
        for (const frame of downloadedFrames(listed, jobs)) frames.push(frame);
      }
      return frames;
    },
    'search:cancel': ({ searchId }) => searches.cancel(searchId),
  };
}
