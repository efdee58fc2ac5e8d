// Where Node's own compile cache (module.enableCompileCache) keeps the command line's compiled code: the user's cache
// folder. Node checks each entry against a hash of the source it was compiled from, so the code that runs is the code
// on disk; what is trusted here is run as code, so the folder must be this user's own and nobody else may write to it.
import type { Stats } from 'node:fs';

// Taken, not imported, as in launch.ts: this runs at every start.
const { lstatSync, mkdirSync } = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');

/** What the cache folder depends on: where the user keeps caches. */
interface CacheSetting {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
}

/** The folder for caches: XDG_CACHE_HOME or ~/.cache on Linux and the like, the platform's own on macOS and Windows. */
export function cacheFolder({ env, platform, home }: CacheSetting): string {
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] || path.join(home, 'AppData', 'Local'), 'mlso-dl', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'mlso-dl');
  const xdg = env['XDG_CACHE_HOME'];
  // The XDG rule: a relative path is invalid and ignored.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'mlso-dl');
}

type CacheFolderState =
  /** The folder is there (made now if need be), this user's own and private: Node may keep its cache in it. */
  | 'ready'
  /** Someone else could change what is in it (or it is a link or not a folder): not used. */
  | 'untrusted'
  /** It cannot be made here (no such place, no permission, a read-only or special file system): not used. */
  | 'unavailable';

/**
 * Makes the cache folder where it is missing, private to the user (0700), one level at a time: Node's recursive
 * mkdir, and module.enableCompileCache given a folder that is not there, never end where mkdir answers ENOENT for a
 * folder whose parent exists (under /proc). Then says whether the folder may hold code. `uid` is the user the folder
 * must belong to (undefined where there are no owners: Windows).
 */
export function prepareCacheFolder(folder: string, uid: number | undefined): CacheFolderState {
  try {
    const missing: string[] = [];
    for (let level = folder; !lstatOrUndefined(level); level = path.dirname(level)) {
      if (path.dirname(level) === level) return 'unavailable';
      missing.unshift(level);
    }
    for (const level of missing) mkdirSync(level, { mode: 0o700 });
    const stats = lstatSync(folder);
    if (!stats.isDirectory()) return 'untrusted';
    // Only what this user alone can change is trusted: owned by them, and neither group nor others may write to it.
    if (uid !== undefined && (stats.uid !== uid || (stats.mode & 0o022) !== 0)) return 'untrusted';
    return 'ready';
  } catch {
    return 'unavailable';
  }
}

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}
