// What to do when a file of the same name is already in the download folder: a setting and a CLI flag.
export const EXISTING_FILE_POLICIES = ['skip', 'overwrite', 'keep-both'] as const;
export type ExistingFilePolicy = (typeof EXISTING_FILE_POLICIES)[number];
