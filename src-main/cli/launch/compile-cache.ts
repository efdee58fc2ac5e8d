// V8's code cache for the command line's bundle, kept in the user's cache folder. Without it every start parses and
// compiles the bundle's functions again (about 50 ms of CPU for a command that asks the server); with it V8 reads
// back the bytecode an earlier run compiled. What is trusted here is run as code, so it is read only from a folder
// and a file that this user owns and nobody else can write to, and only if its own checksum holds; anything else
// is ignored (and rewritten where it may be). Node 20 has no module.enableCompileCache, and V8 caches scripts,
// not ES modules: hence one CommonJS bundle compiled through vm.Script (launch.ts).
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { crc32 } from 'node:zlib';

/** What the cache folder and name depend on: where the user keeps caches, and what compiled the bundle. */
export interface CacheSetting {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  home: string;
  /** The user the files must belong to (undefined where there are no owners: Windows). */
  uid: number | undefined;
}

export interface CompilerIdentity {
  /** SHA-256 of the bundle, hex (written into the launcher by the build). */
  bundleHash: string;
  /** Where the bundle is: V8 keeps the name of the file a cache was compiled from (see cacheFileName). */
  bundlePath: string;
  nodeVersion: string;
  arch: string;
}

/** The folder for caches: XDG_CACHE_HOME or ~/.cache on Linux and the like, the platform's own on macOS and Windows. */
export function cacheFolder({ env, platform, home }: CacheSetting): string {
  if (platform === 'win32') return path.join(env['LOCALAPPDATA'] || path.join(home, 'AppData', 'Local'), 'mlso-dl', 'Cache');
  if (platform === 'darwin') return path.join(home, 'Library', 'Caches', 'mlso-dl');
  const xdg = env['XDG_CACHE_HOME'];
  // The XDG rule: a relative path is invalid and ignored.
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'mlso-dl');
}

const NAME_PREFIX = 'cli-';
const NAME_SUFFIX = '.v8cache';

/**
 * Named by where the bundle is as well as by what it is: V8 takes a cache compiled from the same source at another
 * path, and then names that other file in stack traces and coverage (two installs of one version, a global one and a
 * project's, build the same bundle). Not named by Node's options: most (--import, --cpu-prof) leave V8's code alone,
 * and a test run that passes a new temporary file each time would leave a cache each time. V8 rejects a cache made
 * under other V8 flags (--max-old-space-size), and a rejected cache is written again.
 */
export function cacheFileName({ bundleHash, bundlePath, nodeVersion, arch }: CompilerIdentity): string {
  const place = crc32(bundlePath).toString(16).padStart(8, '0');
  return `${NAME_PREFIX}${bundleHash.slice(0, 16)}-${place}-node${nodeVersion.replace(/^v/, '')}-${arch}${NAME_SUFFIX}`;
}

// The file: a header of our own, then V8's data. The checksum is ours because V8 may not verify its own in a release
// build, and a torn or damaged file must not reach it.
const MAGIC = 0x4d4c4343; // "MLCC"
const HEADER_BYTES = 16;

export interface CachedCode {
  /** V8's cached data, for vm.Script's cachedData. */
  data: Buffer;
  /** Bytecode in the heap when the run that wrote it ended: what it had compiled (see shouldRewrite). */
  writerBytecodeBytes: number;
}

/** The header and V8's data as one file's bytes. */
export function encodeCachedCode({ data, writerBytecodeBytes }: CachedCode): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(crc32(data), 4);
  header.writeDoubleLE(writerBytecodeBytes, 8);
  return Buffer.concat([header, data]);
}

/** The cached code in a file's bytes, or undefined when they are not a whole, undamaged cache file. */
export function decodeCachedCode(bytes: Buffer): CachedCode | undefined {
  if (bytes.length <= HEADER_BYTES || bytes.readUInt32LE(0) !== MAGIC) return undefined;
  const data = bytes.subarray(HEADER_BYTES);
  if (crc32(data) !== bytes.readUInt32LE(4)) return undefined;
  const writerBytecodeBytes = bytes.readDoubleLE(8);
  return Number.isFinite(writerBytecodeBytes) && writerBytecodeBytes >= 0 ? { data, writerBytecodeBytes } : undefined;
}

/** Only what this user alone can change is trusted: owned by them, and neither group nor others may write to it. */
function isOwnAndPrivate(stats: Stats, uid: number | undefined): boolean {
  if (uid === undefined) return true;
  return stats.uid === uid && (stats.mode & 0o022) === 0;
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

export type CacheRead =
  | { state: 'found'; code: CachedCode }
  /** No file yet, or one that is damaged: a new one is written at the end of the run. */
  | { state: 'missing' | 'damaged' }
  /** The folder or the file could be changed by someone else (or is a link): neither read nor written. */
  | { state: 'untrusted' };

export function readCachedCode(folder: string, name: string, uid: number | undefined): CacheRead {
  const folderStats = statOrUndefined(folder);
  if (!folderStats) return { state: 'missing' };
  if (!folderStats.isDirectory() || !isOwnAndPrivate(folderStats, uid)) return { state: 'untrusted' };
  const file = path.join(folder, name);
  const fileStats = statOrUndefined(file);
  if (!fileStats) return { state: 'missing' };
  if (!fileStats.isFile() || !isOwnAndPrivate(fileStats, uid)) return { state: 'untrusted' };
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { state: 'damaged' };
  }
  const code = decodeCachedCode(bytes);
  return code ? { state: 'found', code } : { state: 'damaged' };
}

/**
 * A cache is rewritten when there was none that V8 took, or when this run compiled much more than the run that
 * wrote it (a `--version` wrote it, and now a download ran): V8 keeps in a cache what was compiled when it was made.
 * The factor keeps two commands from taking turns: each rewrite needs a quarter more bytecode than the last.
 */
export function shouldRewrite(read: CacheRead, rejected: boolean | undefined, bytecodeBytes: number): boolean {
  if (read.state === 'untrusted') return false;
  if (read.state !== 'found' || rejected !== false) return true;
  return bytecodeBytes > read.code.writerBytecodeBytes * 1.25;
}

/** The caches kept: each build of the command line and each Node version has its own, and the latest few stay. */
const CACHES_KEPT = 4;
/** A temporary file this old belongs to a run that stopped while writing it. */
const TEMPORARY_STALE_MS = 60_000;

/**
 * Writes the cache atomically (a new file of this process, renamed over the old one), in a folder made private to
 * the user; never through a folder someone else can write to. Failures are ignored: the cache only saves time.
 */
export function writeCachedCode(folder: string, name: string, code: CachedCode, uid: number | undefined, now = Date.now()): boolean {
  try {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const folderStats = lstatSync(folder);
    if (!folderStats.isDirectory() || !isOwnAndPrivate(folderStats, uid)) return false;
    const temporary = path.join(folder, `.${name}.${process.pid}.${now}.tmp`);
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      writeSync(fd, encodeCachedCode(code));
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path.join(folder, name));
    removeStaleCaches(folder, now);
    return true;
  } catch {
    return false;
  }
}

/** Leaves the newest caches (the one just written among them) and removes the rest, and temporary files left behind. */
function removeStaleCaches(folder: string, now: number): void {
  const caches: { file: string; written: number }[] = [];
  for (const entry of readdirSync(folder)) {
    const file = path.join(folder, entry);
    const stats = statOrUndefined(file);
    if (!stats?.isFile()) continue;
    if (entry.startsWith(NAME_PREFIX) && entry.endsWith(NAME_SUFFIX)) caches.push({ file, written: stats.mtimeMs });
    else if (entry.startsWith(`.${NAME_PREFIX}`) && entry.endsWith('.tmp') && now - stats.mtimeMs > TEMPORARY_STALE_MS) removeQuietly(file);
  }
  caches.sort((a, b) => b.written - a.written);
  for (const { file } of caches.slice(CACHES_KEPT)) removeQuietly(file);
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Another process removed it first, or it is not ours to remove.
  }
}
