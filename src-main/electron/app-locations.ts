// Where the desktop app finds its built pieces and keeps its state. The built main lives in
// dist/electron/, beside the preload, with the renderer in dist/renderer/ (the same layout inside app.asar).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Lets end-to-end tests run the app against a throwaway profile; must be applied before the app is ready. */
export const USER_DATA_ENV = 'MLSO_DESKTOP_USER_DATA';

/** The preferences file in the profile folder is `${SETTINGS_FILE_NAME}.json` (tests pre-seed it). */
export const SETTINGS_FILE_NAME = 'settings';

export interface AppLocations {
  /** dist/electron/preload.cjs */
  preload: string;
  /** dist/renderer/index.html */
  rendererIndex: string;
}

export function appLocations(builtMainFolder: string): AppLocations {
  return {
    preload: path.join(builtMainFolder, 'preload.cjs'),
    rendererIndex: path.join(builtMainFolder, '..', 'renderer', 'index.html'),
  };
}

/** The folder to use instead of Electron's userData, when the environment asks for one. */
export function userDataOverride(env: NodeJS.ProcessEnv): string | null {
  const value = env[USER_DATA_ENV]?.trim();
  return value ? path.resolve(value) : null;
}

/** Whether `url` is the app's own page (any hash or query), as loaded by loadFile. */
export function isAppPageUrl(url: string, rendererIndex: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'file:') return false;
  parsed.hash = '';
  parsed.search = '';
  try {
    return samePath(fileURLToPath(parsed), rendererIndex);
  } catch {
    return false;
  }
}

function samePath(a: string, b: string): boolean {
  const left = path.resolve(a);
  const right = path.resolve(b);
  // Windows and macOS file systems are usually case-insensitive; drive letters vary in case in URLs.
  return process.platform === 'linux' ? left === right : left.toLowerCase() === right.toLowerCase();
}
