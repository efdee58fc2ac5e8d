// Where a campaign's file goes: `sub/folders/filename` inside the campaign's folder, by its layout.
import path from 'node:path';
import type { FileEntry } from '../../../src-shared/api/schemas';
import { placeEntry } from '../../../src-shared/campaigns/folder-layout';

type Placeable = Pick<FileEntry, 'filename' | 'instrument' | 'product' | 'date-obs'> & Record<string, unknown>;

export function relativePathOf(layout: string, entry: Placeable): string {
  const folder = placeEntry(layout, entry);
  return folder === '' ? entry.filename : `${folder}/${entry.filename}`;
}

export function targetPathOf(campaignFolder: string, relativePath: string): string {
  return path.join(campaignFolder, ...relativePath.split('/'));
}

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
