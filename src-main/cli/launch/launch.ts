// Entry of dist/cli/mlso-dl.js (what bin/mlso-dl.js loads): turns on Node's compile cache in the user's cache folder
// (compile-cache.ts), then loads the command line, dist/cli/mlso-dl.cjs, whose compiled code Node then reads back
// from an earlier run instead of parsing and compiling it again. Kept small: everything it loads is paid by every
// start. NODE_DISABLE_COMPILE_CACHE=1 (Node's own switch) turns the cache off; `NODE_DEBUG=mlso-dl-compile-cache`
// says where it is and whether it is used, NODE_DEBUG_NATIVE=COMPILE_CACHE (Node's own) what Node did with it.
import { cacheFolder, prepareCacheFolder } from './compile-cache';

// Node's modules are taken with process.getBuiltinModule, not imported: an ES module import of one reads every
// export, and for node:util that loads parts of Node (worker_threads among them) no start needs.
const nodeModule = process.getBuiltinModule('node:module');
const { homedir } = process.getBuiltinModule('node:os');
const debug = process.getBuiltinModule('node:util').debuglog('mlso-dl-compile-cache');

/** What became of the cache: Node's own answer, or why it was not asked. */
function enableCompileCache(): string {
  if (process.env['NODE_DISABLE_COMPILE_CACHE']) return 'off';
  let folder: string;
  try {
    folder = cacheFolder({ env: process.env, platform: process.platform, home: homedir() });
  } catch {
    // No home folder (homedir() throws when the user has none): start without the cache.
    return 'no cache folder';
  }
  const state = prepareCacheFolder(folder, process.getuid?.());
  if (state !== 'ready') return `${folder}: ${state}`;
  const { status, message } = nodeModule.enableCompileCache(folder);
  const statusName = Object.entries(nodeModule.constants.compileCacheStatus).find(([, value]) => value === status)?.[0] ?? String(status);
  return `${folder}: ${statusName.toLowerCase()}${message ? ` (${message})` : ''}`;
}

debug('%s', enableCompileCache());
nodeModule.createRequire(import.meta.url)('./mlso-dl.cjs');
