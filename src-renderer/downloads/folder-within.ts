// Whether a job's folder is a folder or one under it: the one rule for the Folder filter (a campaign with the
// folders its layout makes) and for naming a destination by its campaign.

/** True when `folder` is `parent` or lies under it (either separator, as the core stores the path). */
export function folderWithin(folder: string, parent: string): boolean {
  return folder === parent || folder.startsWith(`${parent}/`) || folder.startsWith(`${parent}\\`);
}
