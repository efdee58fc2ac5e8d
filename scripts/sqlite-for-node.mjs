// better-sqlite3 built for the Node.js running this script: npm runs it at install with the project's own Node
// (the `node` devDependency, first on the PATH of npm scripts), whatever Node ran npm itself. better-sqlite3's
// install fetches a prebuilt binary, else compiles against headers that may belong to another Node (an npmrc's
// nodedir, or none where nodejs.org is unreachable); this rebuilds it against the running Node's own headers.
// Each build is kept by ABI, so switching Node (CI's Node 22 lanes, then back) swaps files instead of compiling.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const packageFolder = path.join(root, 'node_modules', 'better-sqlite3');
const binary = path.join(packageFolder, 'build', 'Release', 'better_sqlite3.node');
const abi = process.versions.modules;

/** Why better-sqlite3 does not load in this Node (its error message), or undefined when it does. */
function loadProblem() {
  try {
    const Database = createRequire(path.join(root, 'package.json'))('better-sqlite3');
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** A child process loads it: this process keeps the library it failed to load mapped. */
function loadsInChild() {
  const check = "const D = require('better-sqlite3'); new D(':memory:').close();";
  return spawnSync(process.execPath, ['-e', check], { cwd: root, stdio: 'ignore' }).status === 0;
}

/** Copies by rename, so a library mapped by a running process is never overwritten in place. */
function placeFile(from, to) {
  mkdirSync(path.dirname(to), { recursive: true });
  copyFileSync(from, `${to}.tmp`);
  renameSync(`${to}.tmp`, to);
}

/**
 * The folder holding this Node's own headers (include/node): official builds carry them beside bin/, and the
 * npm registry's `node` package keeps them in the node-<platform>-<arch> package it installs.
 */
function ownHeaders() {
  const prefix = path.resolve(path.dirname(process.execPath), '..');
  const folders = [prefix, path.join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`)];
  return folders.find((folder) => headersVersion(folder) === process.versions.node);
}

function headersVersion(folder) {
  const versionFile = path.join(folder, 'include', 'node', 'node_version.h');
  if (!existsSync(versionFile)) return undefined;
  const text = readFileSync(versionFile, 'utf8');
  const part = (name) => text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
  return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}

function nodeGyp() {
  const candidates = [process.env.npm_config_node_gyp, path.join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')];
  return candidates.find((file) => file && existsSync(file));
}

const problem = loadProblem();
if (problem === undefined) process.exit(0);
if (!existsSync(path.join(packageFolder, 'package.json'))) {
  console.error('better-sqlite3 is not installed: run "npm install" in the project folder.');
  process.exit(1);
}

const { version } = JSON.parse(readFileSync(path.join(packageFolder, 'package.json'), 'utf8'));
const cacheFolder = path.join(root, 'node_modules', '.cache', 'mlso-downloader');
const kept = (moduleVersion) => path.join(cacheFolder, `better-sqlite3-${version}-abi${moduleVersion}-${process.platform}-${process.arch}.node`);

// Keep the build in place for the Node it was made for, named by the ABI its load error reports.
const builtFor = problem.match(/NODE_MODULE_VERSION (\d+)/)?.[1];
if (builtFor && builtFor !== abi && existsSync(binary)) placeFile(binary, kept(builtFor));

if (existsSync(kept(abi))) {
  placeFile(kept(abi), binary);
  if (loadsInChild()) {
    console.log(`better-sqlite3 ${version}: using the build kept for Node ${process.versions.node} (ABI ${abi}).`);
    process.exit(0);
  }
}

const gyp = nodeGyp();
if (!gyp) {
  console.error(`better-sqlite3 does not load in Node ${process.versions.node} and node-gyp was not found to rebuild it: run "npm install" again.`);
  process.exit(1);
}
const headers = ownHeaders();
console.log(`Building better-sqlite3 ${version} for Node ${process.versions.node} (ABI ${abi}) from source, once...`);
const build = spawnSync(process.execPath, [gyp, 'rebuild', '--release', '--jobs=max'], {
  cwd: packageFolder,
  encoding: 'utf8',
  env: { ...process.env, ...(headers ? { npm_config_nodedir: headers } : {}) },
});
if (build.status !== 0 || !loadsInChild()) {
  const lastLine = `${build.stderr ?? ''}${build.error?.message ?? ''}`.trim().split('\n').at(-1) ?? '';
  console.error(
    `better-sqlite3 could not be built for Node ${process.versions.node}: install a C++ compiler, make and Python 3 ` +
      `(on Debian: apt-get install build-essential python3), then run "npm install" again. ${lastLine}`,
  );
  process.exit(1);
}
placeFile(binary, kept(abi));
console.log(`better-sqlite3 ${version} built for Node ${process.versions.node}.`);
