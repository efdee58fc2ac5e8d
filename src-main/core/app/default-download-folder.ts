// Where a new installation downloads to, in every front end: MLSO inside the user's Downloads folder.
// Never relative to the folder a command happened to start in, which would move with every launch.
import { homedir } from 'node:os';
import path from 'node:path';

export function defaultDownloadFolder(osDownloadsFolder: string = path.join(homedir(), 'Downloads')): string {
  return path.join(osDownloadsFolder, 'MLSO');
}
