// The listings the renderer searched for, kept in the core so that "Download" names a listing and the chosen
// rows instead of sending 100,000 file entries (URLs included) back across IPC or the WebSocket. Only the most
// recent listings are kept, bounded by their total number of entries: the renderer shows one at a time.
import { randomUUID } from 'node:crypto';
import type { FileEntry, FileListing } from '../../../src-shared/api/schemas';
import { InvalidInputError } from '../errors';

/** Entries kept over all listings; the newest listing is kept whatever its size. */
const KEPT_ENTRIES = 300_000;

export class KeptListings {
  /** In the order they were kept, oldest first. */
  private readonly listings = new Map<string, FileListing>();

  constructor(private readonly keptEntries = KEPT_ENTRIES) {}

  /** Keeps a listing and returns its id. */
  keep(listing: FileListing): string {
    const id = randomUUID();
    this.listings.set(id, listing);
    let total = 0;
    for (const kept of this.listings.values()) total += kept.files.length;
    for (const [oldId, old] of this.listings) {
      if (total <= this.keptEntries || oldId === id) break;
      this.listings.delete(oldId);
      total -= old.files.length;
    }
    return id;
  }

  /** The entries of a kept listing at the given positions (all of them when `positions` is absent). */
  entries(listingId: string, positions?: readonly number[]): FileEntry[] {
    const listing = this.listings.get(listingId);
    if (!listing) throw new InvalidInputError('Those search results are no longer kept: search again, then download.');
    if (positions === undefined) return listing.files;
    const chosen: FileEntry[] = [];
    for (const position of positions) {
      const entry = Number.isInteger(position) ? listing.files[position] : undefined;
      if (!entry) throw new InvalidInputError(`Row ${position} is not in those search results: search again, then download.`);
      chosen.push(entry);
    }
    return chosen;
  }
}
