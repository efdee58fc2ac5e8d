// The install step that keeps better-sqlite3 built for the Node running npm's scripts (scripts/sqlite-for-node.mjs),
// run as npm runs it, on a copy of the project's better-sqlite3 in a folder of its own.
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const repo = path.resolve('.');
const { version } = (await import(path.join(repo, 'node_modules', 'better-sqlite3', 'package.json'), { with: { type: 'json' } })).default as {
  version: string;
};
let root: string;

const binary = () => path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const kept = () =>
  path.join(
    root,
    'node_modules',
    '.cache',
    'mlso-downloader',
    `better-sqlite3-${version}-abi${process.versions.modules}-${process.platform}-${process.arch}.node`,
  );

function installStep() {
  return spawnSync(process.execPath, [path.join(root, 'scripts', 'sqlite-for-node.mjs')], { cwd: root, encoding: 'utf8' });
}

function loads() {
  const check = "const D = require('better-sqlite3'); new D(':memory:').close();";
  return spawnSync(process.execPath, ['-e', check], { cwd: root }).status === 0;
}

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'sqlite-for-node-'));
  await mkdir(path.join(root, 'scripts'));
  await cp(path.join(repo, 'scripts', 'sqlite-for-node.mjs'), path.join(root, 'scripts', 'sqlite-for-node.mjs'));
  await writeFile(path.join(root, 'package.json'), '{ "type": "module" }\n');
  const source = path.join(repo, 'node_modules', 'better-sqlite3');
  await cp(source, path.join(root, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    filter: (file) => !/[\\/](obj|obj\.target|deps|src)$/.test(file),
  });
  for (const dependency of ['bindings', 'file-uri-to-path']) {
    await symlink(path.join(repo, 'node_modules', dependency), path.join(root, 'node_modules', dependency), 'dir');
  }
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('better-sqlite3 built for the Node that runs the scripts', () => {
  it('does nothing when the build loads', () => {
    const run = installStep();
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('puts back the build kept for this Node instead of compiling again', async () => {
    await mkdir(path.dirname(kept()), { recursive: true });
    await cp(binary(), kept());
    await writeFile(binary(), 'not a library');
    expect(loads()).toBe(false);

    const run = installStep();
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`better-sqlite3 ${version}: using the build kept for Node ${process.versions.node} (ABI ${process.versions.modules}).\n`);
    expect(run.status).toBe(0);
    expect(loads()).toBe(true);
  });
});
