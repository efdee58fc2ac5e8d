// The folder chooser's channels (web mode has no native dialog): list a folder's sub-folders, make a new one.
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import { listFolders, makeFolder } from '../files/folder-listing';

export function folderHandlers(): Pick<ContractHandlers, 'folders:list' | 'folders:create'> {
  return {
    'folders:list': ({ path, showHidden }) => listFolders(path, showHidden === undefined ? {} : { showHidden }),
    'folders:create': ({ parent, name }) => makeFolder(parent, name),
  };
}
