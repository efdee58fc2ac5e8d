// What the folder chooser of web mode shows: one folder's sub-folders, as the core lists them. Names are data
// (a chosen path is built from them); labels are the same names with control characters escaped, for the screen.

export interface FolderEntry {
  name: string;
  /** The name as shown: control and bidirectional characters escaped. */
  label: string;
  path: string;
}

export interface FolderListing {
  /** The folder listed: the one asked for, or its nearest existing parent, or the home folder. */
  path: string;
  label: string;
  /** Null at the top of the file system. */
  parent: string | null;
  /** Sorted by name, at most FOLDER_LISTING_LIMIT of them. */
  folders: FolderEntry[];
  /** Every sub-folder shown or not (beyond the limit), hidden ones left out unless asked for. */
  total: number;
  /** Sub-folders whose names start with a dot, left out unless asked for. */
  hidden: number;
  /** Why the folder could not be read, in plain words; its sub-folders are then unknown. */
  problem: string | null;
}

/** Beyond this many sub-folders a listing is cut (and says so): a picker is not a file manager. */
export const FOLDER_LISTING_LIMIT = 500;

/** "Showing the first 500 of 3,000 folders.", or null when nothing was left out. */
export function cappedListingText(listing: Pick<FolderListing, 'folders' | 'total'>): string | null {
  if (listing.total <= listing.folders.length) return null;
  return `Showing the first ${listing.folders.length.toLocaleString('en-US')} of ${listing.total.toLocaleString('en-US')} folders; type the path to reach the others.`;
}
