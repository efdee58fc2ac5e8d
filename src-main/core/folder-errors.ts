// A folder the engine needs (the download folder, the state folder) that cannot be created or written:
// said in one sentence that names the folder, the reason in plain words, and what to do.
import { MlsoError } from './errors';

/** Plain words for the file-system errors a folder can meet. */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'a folder on its path is missing',
  ENOTDIR: 'a file is in the way on its path',
  EEXIST: 'a file of that name is in the way',
  EISDIR: 'a folder of that name is in the way',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the path is too long',
  ELOOP: 'too many symbolic links on its path',
  EIO: 'input/output error',
};

const NO_ROOM: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);
/** Errors that trying again will not mend: the place cannot be written as it is. */
const CANNOT_WRITE: ReadonlySet<string> = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'EISDIR', 'ELOOP']);

/** The disk (or the user's quota on it) is full. */
export const isNoRoom = (code: string | undefined): code is string => code !== undefined && NO_ROOM.has(code);

/** The place cannot be written, and asking the server again will not change that. */
export const cannotWriteThere = (code: string | undefined): code is string => code !== undefined && CANNOT_WRITE.has(code);

export type FolderRole = 'download' | 'state';
export type FolderStep = 'create' | 'write';

export class FolderAccessError extends MlsoError {
  // The files could not be saved: the kind the front ends already show as a failed download.
  readonly kind = 'download' as const;
  constructor(
    readonly folder: string,
    readonly role: FolderRole,
    readonly step: FolderStep,
    /** A file-system error code (EROFS, ...) or, for other failures, their own words. */
    readonly problem: string,
  ) {
    const what = role === 'download' ? 'the download folder' : 'the state folder';
    const doing = step === 'create' ? `Cannot create ${what}` : `Cannot write to ${what}`;
    const next = isNoRoom(problem)
      ? 'Free some space or choose another folder.'
      : role === 'download'
        ? 'Choose a folder you can write to.'
        : 'Make it writable, or use another --state-dir.';
    super(`${doing} ${folder} (${inPlainWords(problem)}). ${next}`);
  }
}

/** A file-system error code (EROFS, ...) in plain words; anything else as it is. */
export function inPlainWords(problem: string): string {
  return REASONS[problem] ?? problem;
}

/** The file-system error code of `error` (EACCES, EROFS, ...), if it has one. */
export function fileSystemCode(error: unknown): string | undefined {
  const code = error instanceof Error && 'code' in error ? (error as { code: unknown }).code : undefined;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : undefined;
}

/** Runs a step on a folder, turning a file-system failure into a FolderAccessError; other errors pass through. */
export async function onFolder<T>(folder: string, role: FolderRole, step: FolderStep, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = fileSystemCode(error);
    throw code ? new FolderAccessError(folder, role, step, code) : error;
  }
}
