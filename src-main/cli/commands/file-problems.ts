// What went wrong with a path the user named, in a few words after "Cannot read X:" or "Cannot write X:". One table
// of the system's codes for every command (header, quicklook, campaign import and export), so the same problem is
// worded the same way everywhere; anything unusual keeps the system's own message.
const SAME_EITHER_WAY: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder, not a file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'it goes round a loop of symbolic links',
  ENAMETOOLONG: 'the path is longer than the system allows',
};

const WHEN_WRITING: Readonly<Record<string, string>> = {
  ...SAME_EITHER_WAY,
  ENOENT: 'its folder does not exist',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

const WHEN_READING: Readonly<Record<string, string>> = { ...SAME_EITHER_WAY, ENOENT: 'there is no such file' };

export function readProblem(error: unknown): string {
  return problemIn(WHEN_READING, error);
}

export function writeProblem(error: unknown): string {
  return problemIn(WHEN_WRITING, error);
}

function problemIn(table: Readonly<Record<string, string>>, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return (code !== undefined ? table[code] : undefined) ?? (error instanceof Error ? error.message : String(error));
}
