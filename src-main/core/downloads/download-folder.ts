// The download folder is made and checked before anything is queued for it, so a folder that cannot be
// written is one plain message up front rather than a failure for every file.
import { constants as fsConstants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { onFolder } from '../folder-errors';

/** Creates a folder and its parents; a port so tests can meet file systems they cannot mount. */
export type MakeFolder = (folder: string) => Promise<unknown>;

const makeWithParents: MakeFolder = (folder) => mkdir(folder, { recursive: true });

/** The folder exists and can be written, or a FolderAccessError says why not. */
export async function prepareDownloadFolder(folder: string, makeFolder: MakeFolder = makeWithParents): Promise<void> {
  await onFolder(folder, 'download', 'create', () => makeFolder(folder));
  await onFolder(folder, 'download', 'write', () => access(folder, fsConstants.W_OK));
}
