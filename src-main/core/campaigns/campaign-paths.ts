// Where a campaign's file goes: `sub/folders/filename` inside the campaign's folder, by its layout.
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { layoutFolderOf } from '../../../src-shared/campaigns/folder-layout';
import { pathBeforeName } from '../downloads/path-limits';

type LayoutEntry = Pick<FileEntry, 'filename' | 'instrument' | 'product' | 'date-obs'> & Record<string, unknown>;

export function relativePathOf(layout: string, entry: LayoutEntry): string {
  return inFolder(layoutFolderOf(layout, entry), entry.filename);
}

const inFolder = (folder: string, filename: string): string => (folder === '' ? filename : `${folder}/${filename}`);

export function targetPathOf(campaignFolder: string, relativePath: string): string {
  return path.join(campaignFolder, ...relativePath.split('/'));
}

/**
 * The paths of a campaign's listed files, as relativePathOf and targetPathOf give them, with each sub-folder's path
 * on disk joined once: a sync places a million files in a few hundred folders.
 */
export class CampaignFilePaths {
  /** Each sub-folder's target path up to its files' names (ending in a separator). */
  private readonly folderPaths = new Map<string, string>();

  constructor(
    private readonly campaignFolder: string,
    private readonly layout: string,
  ) {}

  /** The entry's relative path; `targetPath` is its place on disk. A safe name is required (checkSafeFilename). */
  of(entry: LayoutEntry): { relativePath: string; targetPath: string } {
    const folder = layoutFolderOf(this.layout, entry);
    let folderPath = this.folderPaths.get(folder);
    if (folderPath === undefined) {
      if (this.folderPaths.size >= MOST_FOLDERS) this.folderPaths.clear();
      folderPath = pathBeforeName(targetPathOf(this.campaignFolder, folder));
      this.folderPaths.set(folder, folderPath);
    }
    return { relativePath: inFolder(folder, entry.filename), targetPath: `${folderPath}${entry.filename}` };
  }
}

const MOST_FOLDERS = 10_000;

/** A stored campaign file as the listing entry it came from, for placing it again. */
export function entryOfStored(file: {
  filename: string;
  url: string;
  filesize: number;
  instrument: string;
  product: string;
  dateObs: string | null;
  waveRegion: string | null;
  obsPlan: string | null;
}): FileEntry {
  const entry: FileEntry = {
    'date-obs': file.dateObs ?? '',
    filename: file.filename,
    filesize: file.filesize,
    instrument: file.instrument,
    product: file.product,
    url: file.url,
  };
  // Set rather than spread in: a million files a sync.
  if (file.waveRegion !== null) entry['wave-region'] = file.waveRegion;
  if (file.obsPlan !== null) entry['obs-plan'] = file.obsPlan;
  return entry;
}
