// electron-builder.yml is checked by electron-builder's own schema validation (which needs no download)
// and for the choices the app depends on: the built entry points packed, native code unpacked, the icon.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type FileSet = string | { filter?: string | string[] };

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: FileSet | FileSet[];
  asarUnpack?: string[];
  npmRebuild?: boolean;
  linux?: { target?: string[] };
  mac?: { target?: string };
  win?: { target?: string };
  icon?: string;
}

// app-builder-lib is CommonJS without an exports map; its config loader is the one `electron-builder` runs.
const configModule = 'app-builder-lib/out/util/config/config.js';
const { getConfig, validateConfiguration } = (await import(configModule)) as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = (await import('builder-util')) as { DebugLogger: new (enabled: boolean) => unknown };

const root = path.resolve('.');
const config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);

/** The file patterns, whichever of its accepted shapes electron-builder normalised them to. */
function filePatterns(files: BuilderConfig['files']): string[] {
  return [files ?? []].flat().flatMap((entry) => (typeof entry === 'string' ? [entry] : [entry.filter ?? []].flat()));
}

describe('electron-builder.yml', () => {
  it("passes electron-builder's configuration schema", async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('names the app and packs the built app with package.json', () => {
    expect(config.productName).toBe('MLSO Downloader');
    expect(config.appId).toMatch(/^edu\.ucar\.hao\./);
    expect(filePatterns(config.files)).toEqual(expect.arrayContaining(['package.json', 'dist/**/*']));
  });

  it('leaves the benchmark and the Node library build out of the app', () => {
    expect(filePatterns(config.files)).toEqual(expect.arrayContaining(['!dist/bench/**', '!dist/lib/**']));
  });

  it('unpacks better-sqlite3’s native module and rebuilds it for Electron when packaging', () => {
    expect(config.asarUnpack?.some((pattern) => pattern.includes('better-sqlite3') && pattern.endsWith('.node'))).toBe(true);
    expect(config.npmRebuild).toBe(true);
  });

  it('builds an AppImage and a deb, a dmg and an NSIS installer', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toBe('dmg');
    expect(config.win?.target).toBe('nsis');
  });

  it('has a real 1024×1024 PNG icon', async () => {
    const png = await readFile(path.join(root, config.icon ?? 'build/icon.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024]);
  });

  it('has package.json "main" pointing at the built Electron main', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { main?: string };
    expect(manifest.main).toBe('dist/electron/main.js');
  });
});
