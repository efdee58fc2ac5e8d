// How `npm start` and `npm run e2e:electron` tell whether Electron's binary is installed, without
// require('electron') (which would try to download it). Checked against fake node_modules folders.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

type Detection = { found: true; executable: string } | { found: false; reason: string };
interface StartScript {
  findElectronBinary(root: string, env?: Record<string, string | undefined>, platform?: string): Detection;
  WEB_MODE_NOTICE: string;
}

const script = pathToFileURL(path.resolve('scripts/start.mjs')).href;
const { findElectronBinary, WEB_MODE_NOTICE } = (await import(script)) as StartScript;

let root: string;
const electronFolder = () => path.join(root, 'node_modules', 'electron');

async function installElectronPackage({ pathTxt, binary }: { pathTxt?: string; binary?: string }) {
  await mkdir(path.join(electronFolder(), 'dist'), { recursive: true });
  await writeFile(path.join(electronFolder(), 'package.json'), JSON.stringify({ name: 'electron', version: '45.4.1' }));
  if (pathTxt !== undefined) await writeFile(path.join(electronFolder(), 'path.txt'), pathTxt);
  if (binary !== undefined) {
    await mkdir(path.dirname(path.join(electronFolder(), 'dist', binary)), { recursive: true });
    await writeFile(path.join(electronFolder(), 'dist', binary), '');
  }
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mlso-electron-binary-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('finding Electron’s binary', () => {
  it('finds the executable path.txt names under dist/', async () => {
    await installElectronPackage({ pathTxt: 'electron', binary: 'electron' });
    expect(findElectronBinary(root, {}, 'linux')).toEqual({ found: true, executable: path.join(electronFolder(), 'dist', 'electron') });
  });

  it('finds the macOS app bundle executable', async () => {
    const bundled = 'Electron.app/Contents/MacOS/Electron';
    await installElectronPackage({ pathTxt: bundled, binary: bundled });
    expect(findElectronBinary(root, {}, 'darwin')).toMatchObject({ found: true });
  });

  it('reports the npm package without its binary (no path.txt), as on this project’s build machines', async () => {
    await installElectronPackage({});
    const detection = findElectronBinary(root, {}, 'linux');
    expect(detection).toMatchObject({ found: false });
    expect(detection.found === false && detection.reason).toMatch(/path\.txt/);
  });

  it('reports a path.txt whose executable is missing (an interrupted download)', async () => {
    await installElectronPackage({ pathTxt: 'electron' });
    expect(findElectronBinary(root, {}, 'linux')).toMatchObject({ found: false, reason: expect.stringMatching(/does not exist/) });
  });

  it('reports no electron package at all', () => {
    expect(findElectronBinary(root, {}, 'linux')).toMatchObject({ found: false, reason: expect.stringMatching(/not installed/) });
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH like the electron package does', async () => {
    await installElectronPackage({});
    const custom = path.join(root, 'custom-electron');
    await mkdir(custom, { recursive: true });
    await writeFile(path.join(custom, 'electron'), '');
    expect(findElectronBinary(root, { ELECTRON_OVERRIDE_DIST_PATH: custom }, 'linux')).toEqual({
      found: true,
      executable: path.join(custom, 'electron'),
    });
  });

  it('says in one line that web mode starts instead', () => {
    expect(WEB_MODE_NOTICE).toBe("Electron's binary is not installed here, so MLSO Downloader starts in web mode instead.");
  });
});

describe('the Node.js each front end needs', () => {
  it('declares every front end’s requirement where npm and the README show them', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
    const readme = await readFile('README.md', 'utf8');
    expect(pkg.engines.node).toBe('>=22.12');
    expect(pkg.devDependencies['node']).toMatch(/^\^24\./);
    expect(readme).toContain('Node.js 22.12 or newer');
    expect(readme).toContain('Node.js 24, brought by the project');
  });
});
