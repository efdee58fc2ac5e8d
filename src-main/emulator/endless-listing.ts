// A file listing that never ends (the `endlessListing` fault): the real entries, then made-up ones for ever, as fast
// as the client reads (`flood`) or one every 100 ms (`trickle`), or nothing more on a connection that stays open
// (`silent`). It is what a client's size limit, deadline and idle timeout are for. The writer honours backpressure
// and stops as soon as the client leaves, so the emulator itself never grows.
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import type { EndlessListing } from './options';
import type { StatsRecorder } from './stats';
import { compactDateTime, formatTimestamp } from './timestamps';

const TRICKLE_MS = 100;
/** Made-up entries per write when flooding: a few tens of kilobytes. */
const FLOOD_BATCH = 128;
/** Made-up entries follow the real ones at this cadence. */
const MADE_UP_CADENCE_SECONDS = 15;
// The date and time at the start of both naming patterns: 20250324_210304_kcor... and 20250324.200652.ucomp...
const NAME_DATE_TIME = /^(\d{8})([._])(\d{6})/;

export interface ListingEntry {
  'date-obs': string;
  filename: string;
  url: string;
  [field: string]: unknown;
}

/** Sends the listing head and `entries`, then carries on as `mode` says until the client goes away. */
export async function sendEndlessListing(
  res: ServerResponse,
  mode: Exclude<EndlessListing, 'off'>,
  endDate: string,
  entries: readonly ListingEntry[],
  template: ListingEntry,
  stats: StatsRecorder,
): Promise<void> {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  const write = async (text: string): Promise<void> => {
    stats.listingBytes(Buffer.byteLength(text));
    if (!res.write(text)) await once(res, 'drain', { signal: gone.signal }).catch(() => undefined);
  };
  res.writeHead(200, { 'Content-Type': 'application/json' });
  // Keys in the service's sorted order: "end-date" comes before "files", so the array opens at once.
  let separator = '';
  const next = (entry: ListingEntry): string => {
    const text = `${separator}${JSON.stringify(entry)}`;
    separator = ',';
    return text;
  };
  await write(`{"end-date":${JSON.stringify(endDate)},"files":[`);
  for (let i = 0; i < entries.length && !gone.signal.aborted; i += FLOOD_BATCH) {
    await write(
      entries
        .slice(i, i + FLOOD_BATCH)
        .map(next)
        .join(''),
    );
  }
  const madeUp = madeUpEntries(template);
  while (!gone.signal.aborted) {
    switch (mode) {
      case 'flood':
        await write(Array.from({ length: FLOOD_BATCH }, () => next(madeUp.next().value)).join(''));
        // A turn of the event loop per batch: a flood must not starve the emulator's other connections.
        await setImmediate();
        break;
      case 'trickle':
        await write(next(madeUp.next().value));
        await sleep(TRICKLE_MS, undefined, { signal: gone.signal }).catch(() => undefined);
        break;
      case 'silent':
        await once(res, 'close').catch(() => undefined);
        break;
    }
  }
}

/** Entries like `template`, each 15 s after the one before: names and dates no catalogue holds. */
function* madeUpEntries(template: ListingEntry): Generator<ListingEntry, never> {
  let time = Date.parse(`${template['date-obs']}Z`) / 1000;
  for (;;) {
    time += MADE_UP_CADENCE_SECONDS;
    const [day, clock] = compactDateTime(time);
    const filename = template.filename.replace(NAME_DATE_TIME, (_all, _day: string, sep: string) => `${day}${sep}${clock}`);
    const url = template.url.replace(encodeURIComponent(template.filename), encodeURIComponent(filename));
    yield { ...template, 'date-obs': formatTimestamp(time), filename, url };
  }
}
