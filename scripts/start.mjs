// `npm start`: builds what is out of date, then opens the desktop app. Where Electron's binary is not installed
// (machines that only reach the npm registry), it runs the same app in web mode instead.
// Electron's binary is looked for without require('electron'), which would try to download it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const WEB_MODE_NOTICE = "Electron's binary is not installed here, so MLSO Downloader starts in web mode instead.";

/** The executable name inside Electron's dist folder when path.txt does not say (as electron's own index.js assumes). */
const DEFAULT_EXECUTABLE = { darwin: 'Electron.app/Contents/MacOS/Electron', win32: 'electron.exe' };

/**
 * Where Electron's binary is, read the way the electron package itself reads it (path.txt, written by
 * its install script, names the executable under node_modules/electron/dist/, or under
 * ELECTRON_OVERRIDE_DIST_PATH when set), but without downloading anything.
 * @returns {{ found: true, executable: string } | { found: false, reason: string }}
 */
export function findElectronBinary(root = projectRoot, env = process.env, platform = process.platform) {
  const packageFolder = path.join(root, 'node_modules', 'electron');
  if (!existsSync(path.join(packageFolder, 'package.json'))) {
    return { found: false, reason: 'the electron package is not installed in node_modules' };
  }
  const pathFile = path.join(packageFolder, 'path.txt');
  const named = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : '';
  const override = env.ELECTRON_OVERRIDE_DIST_PATH?.trim();
  if (!named && !override) {
    return { found: false, reason: 'node_modules/electron/path.txt is missing: the package was installed without its binary' };
  }
  const executable = path.join(override || path.join(packageFolder, 'dist'), named || DEFAULT_EXECUTABLE[platform] || 'electron');
  if (!existsSync(executable)) {
    return { found: false, reason: `${path.relative(root, executable) || executable} does not exist` };
  }
  return { found: true, executable };
}

/** Runs a command with this terminal; resolves with its exit status (128 + signal number when killed). */
export function runForwarding(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    // Ctrl-C reaches the child through the terminal; this process waits for it to finish cleanly.
    const ignore = () => undefined;
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', ignore);
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);
    const settle = (status) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', forward);
      process.off('SIGHUP', forward);
      resolve(status);
    };
    child.once('error', (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      settle(1);
    });
    child.once('exit', (code, signal) => settle(code ?? (signal ? 128 + (signalNumber(signal) ?? 0) : 1)));
  });
}

function signalNumber(signal) {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal];
}

/** `npm run <script>` with the npm that started us (npm_execpath), or the one on PATH. */
export function runNpmScript(script, root = projectRoot) {
  const npm = process.env.npm_execpath;
  return npm && npm.endsWith('.js')
    ? runForwarding(process.execPath, [npm, 'run', script], { cwd: root })
    : runForwarding('npm', ['run', script], { cwd: root, shell: process.platform === 'win32' });
}

/** How long Electron's installer runs before `npm start` says it is downloading: a failure comes sooner. */
const DOWNLOAD_NOTICE_AFTER_MS = 1000;

/**
 * npm installs the electron package without its binary (install scripts are off, and this project keeps
 * Electron's off on purpose); its own installer fetches the binary on first use, as `npx electron`
 * would. Where there is no internet it fails within a second and the caller falls back to web mode, so the
 * notice is printed only for a download under way, never at every start of a machine that cannot download.
 * @returns {Promise<boolean>} whether the installer succeeded
 */
export function downloadElectronBinary(root = projectRoot) {
  const installer = path.join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(installer)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [installer], { cwd: root, stdio: 'ignore' });
    const notice = setTimeout(() => console.log("Downloading Electron's binary (once)..."), DOWNLOAD_NOTICE_AFTER_MS);
    const settle = (succeeded) => {
      clearTimeout(notice);
      resolve(succeeded);
    };
    child.once('error', () => settle(false));
    child.once('exit', (code) => settle(code === 0));
  });
}

/**
 * The builds `npm start` needs, each with what it reads and what it writes. `npm install` already ran the first
 * (the `prepare` script), so a start after it builds only the renderer. Vite is asked for errors only: its notes
 * on chunk sizes and plugin timings are for whoever works on the build, not for someone starting the app.
 */
export const BUILD_STEPS = [
  {
    inputs: ['src-main', 'src-shared', 'src-science', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.lib.json'],
    outputs: [
      'dist/cli/mlso-dl.js',
      'dist/cli/mlso-dl.cjs',
      'dist/cli/mlso-dl-commands.cjs',
      'dist/electron/main.js',
      'dist/electron/preload.cjs',
      'dist/lib/index.js',
    ],
    commands: [['scripts/build-main.mjs'], ['scripts/build-lib.mjs']],
  },
  {
    inputs: [
      'src-renderer',
      'src-shared',
      'src-science',
      'src-main/core/content-security-policy.ts',
      'vite.config.ts',
      'svelte.config.js',
      'package.json',
      'package-lock.json',
    ],
    outputs: ['dist/renderer/index.html'],
    commands: [['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'error']],
  },
];

/** The latest modification time of any file under these paths (relative to root); 0 when there is none. */
export function newestChange(paths, root = projectRoot) {
  let newest = 0;
  const visit = (file) => {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else {
      newest = Math.max(newest, stats.mtimeMs);
    }
  };
  for (const each of paths) visit(path.join(root, each));
  return newest;
}

/** A step is stale when one of its outputs is missing or older than the newest of its inputs. */
export function isStale(step, root = projectRoot) {
  const newestInput = newestChange(step.inputs, root);
  return step.outputs.some((output) => (statSync(path.join(root, output), { throwIfNoEntry: false })?.mtimeMs ?? -1) < newestInput);
}

/** Runs the stale build steps; resolves with the first failing status, or 0. */
export async function buildWhatIsStale(root = projectRoot) {
  // Vite's own warning about its future config loader names nothing a user can act on.
  const env = { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' };
  for (const step of BUILD_STEPS.filter((each) => isStale(each, root))) {
    for (const [script, ...args] of step.commands) {
      const status = await runForwarding(process.execPath, [path.join(root, script), ...args], { cwd: root, env });
      if (status !== 0) return status;
    }
  }
  return 0;
}

async function main(extraArgs) {
  const built = await buildWhatIsStale();
  if (built !== 0) return built;
  let electron = findElectronBinary();
  if (!electron.found && (await downloadElectronBinary())) electron = findElectronBinary();
  if (electron.found) {
    // better-sqlite3's prebuilt binary is Node-API, which Electron loads as Node does: nothing to build for it.
    // ELECTRON_RUN_AS_NODE would make the binary behave as plain Node and ignore the app.
    const { ELECTRON_RUN_AS_NODE: _ignored, ...env } = process.env;
    return runForwarding(electron.executable, [projectRoot, ...extraArgs], { cwd: projectRoot, env });
  }
  console.log(WEB_MODE_NOTICE);
  return runForwarding(process.execPath, [path.join(projectRoot, 'bin', 'mlso-dl.js'), 'web', ...extraArgs], { cwd: projectRoot });
}

const runDirectly = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (runDirectly) process.exitCode = await main(process.argv.slice(2));
