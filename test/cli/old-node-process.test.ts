// The built mlso-dl started by a Node older than it supports says in one line which Node it needs and ends with
// status 1, rather than failing later with an error that does not say what to do. Needs such a Node on the machine
// (the machine's own, where it is older than the one the tests run on) and the built command line.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';

/** A Node older than 22.12 on this machine, if there is one. */
function olderNode(): string | undefined {
  for (const node of [process.execPath, '/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(node)) continue;
    const [major = 0, minor = 0] = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim().split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 12)) return node;
  }
  return undefined;
}

const oldNode = olderNode();

describe('mlso-dl on an older Node', () => {
  it.runIf(oldNode)('says in one line which Node it needs and exits 1', () => {
    const version = spawnSync(oldNode!, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim();
    for (const args of [['--version'], ['files', '--help'], []]) {
      const run = spawnSync(oldNode!, [bin, ...args], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`mlso-dl needs Node.js 22.12 or newer and this is Node.js ${version}: upgrade Node.js (https://nodejs.org).\n`);
    }
  });
});
