// `npm run e2e:electron`: the end-to-end specs through the real desktop app (Playwright's Electron
// launcher), where Electron's binary is installed. Elsewhere it says so and exits with status 2, so a
// run that did not happen is never mistaken for a pass.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectronBinary, runForwarding, runNpmScript } from './start.mjs';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NOT_RUN = 2;

/** Linux without a display: run under xvfb-run when it is installed. */
function displayWrapper() {
  if (process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return [];
  const probe = spawnSync('xvfb-run', ['--help'], { stdio: 'ignore' });
  if (probe.error) {
    console.warn('No display (DISPLAY is not set) and xvfb-run is not installed: Electron may fail to open its window.');
    return [];
  }
  return ['xvfb-run', '--auto-servernum', '--'];
}

const electron = findElectronBinary(projectRoot);
if (!electron.found) {
  console.log(`Not run: Electron's binary is not installed on this machine (${electron.reason}).`);
  process.exit(NOT_RUN);
}

const built = await runNpmScript('build', projectRoot);
if (built !== 0) process.exit(built);

const vitest = [
  process.execPath,
  path.join(projectRoot, 'node_modules/vitest/vitest.mjs'),
  'run',
  '--config',
  'test/e2e-electron/vitest.config.ts',
  ...process.argv.slice(2),
];
const [command, ...args] = [...displayWrapper(), ...vitest];
process.exitCode = await runForwarding(command, args, { cwd: projectRoot });
