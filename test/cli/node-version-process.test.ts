// `mlso-dl` on a Node older than the project supports: one line saying which Node it needs, status 1. The bin is
// started for real, with process.versions.node set to an older release before it runs.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const bin = path.resolve('bin', 'mlso-dl.js');

function runAs(nodeVersion: string) {
  const pretend = `Object.defineProperty(process.versions, 'node', { value: '${nodeVersion}' })`;
  return spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, bin, '--version'], {
    encoding: 'utf8',
  });
}

describe('mlso-dl on an older Node', () => {
  it.each(['20.20.2', '22.11.0'])('says in one line that Node %s is too old and exits 1', (version) => {
    const run = runAs(version);
    expect(run.stderr).toBe(`mlso-dl needs Node.js 22.12 or newer and this is Node.js ${version}: upgrade Node.js (https://nodejs.org).\n`);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(1);
  });

  it('runs from Node 22.12 on', () => {
    const run = runAs('22.12.0');
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^mlso-dl \d+\.\d+\.\d+/);
    expect(run.status).toBe(0);
  });
});
