// `npm start` as a newcomer runs it after `npm install`: scripts/start.mjs spawned through real pipes. Where
// Electron's binary cannot be had it starts web mode: it must build only what is out of date and then say one thing,
// the address to open, with no build chatter from Vite. On the desktop (a stand-in binary here: Electron's cannot be
// downloaded on this machine) it starts Electron with the app and says nothing of its own: what shows is Electron's.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for';

const projectRoot = path.resolve(import.meta.dirname, '../..');
const startScript = path.join(projectRoot, 'scripts', 'start.mjs');
interface StartScript {
  buildWhatIsStale: () => Promise<number>;
  BUILD_STEPS: { outputs: string[] }[];
}
const { buildWhatIsStale, BUILD_STEPS } = (await import(startScript)) as StartScript;
const outputs = BUILD_STEPS.flatMap((step) => step.outputs);

let home = '';
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const closed = new Promise((resolve) => child!.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
  }
  child = undefined;
  if (home) await rm(home, { recursive: true, force: true });
});

async function modificationTimes(): Promise<number[]> {
  return Promise.all(outputs.map(async (output) => (await stat(path.join(projectRoot, output))).mtimeMs));
}

describe('npm start', () => {
  beforeAll(async () => {
    // Whatever an edit left stale is built here, so the start below finds everything up to date.
    expect(await buildWhatIsStale()).toBe(0);
  }, 180_000);

  it('builds nothing that is up to date and prints only the address to open', async () => {
    home = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    const before = await modificationTimes();
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      MLSO_STATE_DIR: path.join(home, 'state'),
      // No Electron binary, and its installer's download site refuses at once: a machine that cannot download it.
      ELECTRON_OVERRIDE_DIST_PATH: path.join(home, 'no-electron'),
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    };
    const started = spawn(process.execPath, [startScript, '--port', '0'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.on('error', () => undefined);
    let stdout = '';
    let stderr = '';
    started.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    started.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    started.stdout.on('error', () => undefined);
    started.stderr.on('error', () => undefined);

    await waitFor(() => /Open http:\/\/127\.0\.0\.1:\d+\//.test(stdout) || started.exitCode !== null, 'web mode to print its address', 60_000);
    expect(stdout).toMatch(/Open http:\/\/127\.0\.0\.1:\d+\//);
    const said = `${stdout}${stderr}`;
    for (const chatter of ['configLoader', 'PLUGIN_TIMINGS', 'chunks are larger', 'vite v', '> mlso-downloader', 'Downloading Electron']) {
      expect(said, `npm start printed "${chatter}":\n${said}`).not.toContain(chatter);
    }
    expect(await modificationTimes(), 'npm start rebuilt what was up to date').toEqual(before);
  }, 90_000);

  it('on the desktop starts Electron with the app and prints nothing of its own, only what Electron says', async () => {
    home = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
    const electronFolder = path.join(home, 'electron-dist');
    const record = path.join(home, 'electron-was-run-with');
    await mkdir(electronFolder);
    // The stand-in records how it was started; the second run makes it fail as a broken Electron would.
    const standIn = [
      '#!/bin/sh',
      `printf '%s\\n' "$@" "ELECTRON_RUN_AS_NODE=\${ELECTRON_RUN_AS_NODE:-unset}" > '${record}'`,
      'if [ -n "$STAND_IN_FAILS" ]; then echo "[9:ERROR:ozone_platform_x11.cc] Missing X server or \\$DISPLAY" >&2; exit 3; fi',
    ].join('\n');
    await writeFile(path.join(electronFolder, 'electron'), `${standIn}\n`);
    await chmod(path.join(electronFolder, 'electron'), 0o755);

    const start = async (extra: Record<string, string>): Promise<{ status: number | null; said: string }> => {
      const env = { ...process.env, HOME: home, ELECTRON_OVERRIDE_DIST_PATH: electronFolder, ELECTRON_RUN_AS_NODE: '1', ...extra };
      const started = spawn(process.execPath, [startScript], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      started.on('error', () => undefined);
      let said = '';
      for (const stream of [started.stdout, started.stderr]) {
        stream.on('error', () => undefined);
        stream.on('data', (chunk: Buffer) => (said += chunk.toString()));
      }
      const status = await new Promise<number | null>((resolve) => started.once('close', (code) => resolve(code)));
      return { status, said };
    };

    const quiet = await start({});
    expect(quiet).toEqual({ status: 0, said: '' });
    expect((await readFile(record, 'utf8')).split('\n')).toEqual([projectRoot, 'ELECTRON_RUN_AS_NODE=unset', '']);

    const broken = await start({ STAND_IN_FAILS: '1' });
    expect(broken).toEqual({ status: 3, said: '[9:ERROR:ozone_platform_x11.cc] Missing X server or $DISPLAY\n' });
  }, 60_000);
});
