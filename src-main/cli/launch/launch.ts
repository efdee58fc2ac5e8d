// Entry of dist/cli/mlso-dl.js (what bin/mlso-dl.js loads): compiles the command line's bundle, dist/cli/mlso-dl.cjs,
// with V8's code cache from an earlier run (compile-cache.ts), runs it, and at exit writes the cache when it has
// none V8 took or this run compiled much more. Kept small: everything it imports is paid by every start.
// `NODE_DEBUG=mlso-dl-compile-cache` says what it did; NODE_DISABLE_COMPILE_CACHE=1 (Node's own name) turns it off.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { debuglog } from 'node:util';
import { getHeapCodeStatistics } from 'node:v8';
import vm from 'node:vm';
import { cacheFileName, cacheFolder, readCachedCode, shouldRewrite, writeCachedCode, type CacheRead } from './compile-cache';

/** SHA-256 of dist/cli/mlso-dl.cjs, written in by scripts/build-main.mjs. */
declare const __CLI_BUNDLE_HASH__: string;

const debug = debuglog('mlso-dl-compile-cache');
const bundle = fileURLToPath(new URL('./mlso-dl.cjs', import.meta.url));
// esbuild writes ASCII only (non-ASCII characters escaped), so Latin-1 reads it exactly, and faster than UTF-8.
const source = readFileSync(bundle, 'latin1');

const enabled = !process.env['NODE_DISABLE_COMPILE_CACHE'];
const uid = process.getuid?.();
const name = cacheFileName({ bundleHash: __CLI_BUNDLE_HASH__, bundlePath: bundle, nodeVersion: process.version, arch: process.arch });
let folder = '';
// Neither read nor written unless a folder for it is known: a run never fails for the cache.
let read: CacheRead = { state: 'untrusted' };
if (enabled) {
  try {
    folder = cacheFolder({ env: process.env, platform: process.platform, home: homedir(), uid });
    read = readCachedCode(folder, name, uid);
  } catch {
    // No home folder (homedir() throws when the user has none): start without the cache.
  }
}

// The same wrapper as Node's own for a CommonJS file, so the bundle sees what require() would give it.
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
  filename: bundle,
  ...(read.state === 'found' ? { cachedData: read.code.data } : {}),
});
const rejected = script.cachedDataRejected;
debug('%s: %s', path.join(folder, name), enabled ? (read.state === 'found' ? (rejected ? 'rejected by V8' : 'accepted') : read.state) : 'off');

if (enabled) {
  process.once('exit', () => {
    try {
      const bytecodeBytes = getHeapCodeStatistics().bytecode_and_metadata_size;
      if (!shouldRewrite(read, rejected, bytecodeBytes)) return;
      const written = writeCachedCode(folder, name, { data: script.createCachedData(), writerBytecodeBytes: bytecodeBytes }, uid);
      debug('%s', written ? 'written' : 'not written');
    } catch {
      // The cache only saves time: a run never fails for it.
    }
  });
}

const module = { exports: {} };
(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
