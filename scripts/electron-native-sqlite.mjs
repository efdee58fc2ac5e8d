// better-sqlite3 for Electron in development. node_modules holds it built for Node (the command line and
// the tests need that one), and Electron needs a build for its own ABI. This prepares that second build
// in a cache folder, from a copy of the package, without touching node_modules/better-sqlite3:
// first the prebuilt binary for Electron (prebuild-install), else a compile against Electron's headers.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BUILT = path.join('build', 'Release', 'better_sqlite3.node');

/**
 * Path of better_sqlite3.node built for `electronVersion`, preparing it when missing.
 * @returns {{ ok: true, binding: string } | { ok: false, reason: string }}
 */
export function electronSqliteBinding(root, electronVersion, { platform = process.platform, arch = process.arch, log = console.log } = {}) {
  const source = path.join(root, 'node_modules', 'better-sqlite3');
  if (!existsSync(path.join(source, 'package.json'))) return { ok: false, reason: 'better-sqlite3 is not installed' };
  const { version } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  const cache = path.join(root, 'node_modules', '.cache', 'mlso-downloader', `better-sqlite3-${version}-electron-${electronVersion}-${platform}-${arch}`);
  const binding = path.join(cache, BUILT);
  if (existsSync(binding)) return { ok: true, binding };

  log(`Preparing better-sqlite3 ${version} for Electron ${electronVersion} (once)...`);
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(path.dirname(cache), { recursive: true });
  cpSync(source, cache, { recursive: true, filter: (file) => !file.includes(`${path.sep}build${path.sep}`) && !file.endsWith(`${path.sep}build`) });
  const bin = (name) => path.join(root, 'node_modules', '.bin', os.platform() === 'win32' ? `${name}.cmd` : name);
  const attempts = [
    [bin('prebuild-install'), ['--runtime=electron', `--target=${electronVersion}`, `--platform=${platform}`, `--arch=${arch}`]],
    [
      bin('node-gyp'),
      ['rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, `--arch=${arch}`, '--dist-url=https://electronjs.org/headers'],
    ],
  ];
  const failures = [];
  for (const [command, args] of attempts) {
    const run = spawnSync(command, args, { cwd: cache, encoding: 'utf8', shell: os.platform() === 'win32' });
    if (run.status === 0 && existsSync(binding)) return { ok: true, binding };
    failures.push(`${path.basename(command)}: ${(run.stderr || run.error?.message || `status ${run.status}`).trim().split('\n').at(-1)}`);
  }
  rmSync(cache, { recursive: true, force: true });
  return { ok: false, reason: failures.join('; ') };
}
