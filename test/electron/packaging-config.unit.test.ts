// electron-builder.yml is checked by electron-builder's own schema validation (which needs no download)
// and for the choices the app depends on: the built entry points packed, native code unpacked and not rebuilt,
// each package holding better-sqlite3's binary for its own platform (matched as electron-builder matches), the icon.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_LINK_SCHEME, CAMPAIGN_FILE_SUFFIX } from '../../src-shared/links/app-link';

type FileSet = string | { filter?: string | string[] };

interface PlatformConfig {
  files?: FileSet | FileSet[];
}

interface BuilderConfig {
  appId?: string;
  productName?: string;
  files?: FileSet | FileSet[];
  asarUnpack?: string[];
  npmRebuild?: boolean;
  linux?: PlatformConfig & { target?: string[] };
  mac?: PlatformConfig & { target?: string };
  win?: PlatformConfig & { target?: string };
  icon?: string;
  protocols?: { name: string; schemes: string[] }[];
  fileAssociations?: { ext: string; name: string }[];
  publish?: { provider: string; url: string } | null;
}

type PlatformKey = 'linux' | 'mac' | 'win';

// app-builder-lib is CommonJS without an exports map; its config loader is the one `electron-builder` runs.
const configModule = 'app-builder-lib/out/util/config/config.js';
const { getConfig, validateConfiguration } = (await import(configModule)) as {
  getConfig(projectDir: string, configPath: string, fromOptions: null): Promise<BuilderConfig>;
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
};
const { DebugLogger } = (await import('builder-util')) as { DebugLogger: new (enabled: boolean) => unknown };
// The matcher electron-builder copies node_modules through (only the `files` exclusions apply there), and its macros.
const fileMatcherModule = 'app-builder-lib/out/fileMatcher.js';
const { getNodeModuleFileMatcher } = (await import(fileMatcherModule)) as {
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformOptions: PlatformConfig,
    packager: { config: BuilderConfig; debugLogger: { isEnabled: boolean } },
  ): { createFilter(): (file: string, stat: { isDirectory(): boolean }) => boolean };
};
const macroModule = 'app-builder-lib/out/util/macroExpander.js';
const { expandMacro } = (await import(macroModule)) as { expandMacro(pattern: string, arch: string, appInfo: object): string };

const root = path.resolve('.');
const config = await getConfig(root, path.join(root, 'electron-builder.yml'), null);

/** Whether electron-builder copies a file of node_modules (its path from the project) into the package for `platform` and `arch`. */
function nodeModulesKept(platform: PlatformKey, arch: string): (file: string) => boolean {
  const expand = (pattern: string) => expandMacro(pattern, arch, {});
  const filter = getNodeModuleFileMatcher(root, root, expand, config[platform] ?? {}, { config, debugLogger: { isEnabled: false } }).createFilter();
  return (file) => filter(path.join(root, file), { isDirectory: () => false });
}

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

  it('unpacks the native modules and does not rebuild them, as Node-API binaries load in Electron as they are', () => {
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/prebuilds/*.node', 'node_modules/@napi-rs/**/*.node']));
    expect(config.npmRebuild).toBe(false);
  });

  it.each([
    ['linux', 'x64', 'linux-x64.node'],
    ['linux', 'arm64', 'linux-arm64.node'],
    ['mac', 'x64', 'darwin-x64.node'],
    ['mac', 'arm64', 'darwin-arm64.node'],
    ['win', 'x64', 'win32-x64.node'],
    ['win', 'arm64', 'win32-arm64.node'],
  ] as const)('packs for %s %s only better-sqlite3’s %s of its prebuilt binaries', async (platform: PlatformKey, arch, binary) => {
    const kept = nodeModulesKept(platform, arch);
    const prebuilds = await readdir(path.join(root, 'node_modules', 'better-sqlite3', 'prebuilds'));
    expect(prebuilds).toContain(binary);
    expect(prebuilds.filter((file) => kept(`node_modules/better-sqlite3/prebuilds/${file}`))).toEqual([binary]);
  });

  it('packs better-sqlite3’s JavaScript but not the sources and headers it is compiled from', () => {
    const kept = nodeModulesKept('linux', 'x64');
    expect(kept('node_modules/better-sqlite3/lib/index.js')).toBe(true);
    expect(kept('node_modules/better-sqlite3/package.json')).toBe(true);
    for (const source of ['deps/sqlite3/sqlite3.c', 'src/better_sqlite3.cpp', 'binding.gyp']) {
      expect(kept(`node_modules/better-sqlite3/${source}`)).toBe(false);
    }
    expect(kept('node_modules/node-addon-api/napi.h')).toBe(false);
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

  it('registers the link scheme and the campaign files the app opens, and names a generic https update feed', () => {
    expect(config.protocols?.flatMap((protocol) => protocol.schemes)).toEqual([APP_LINK_SCHEME]);
    expect(config.fileAssociations?.map((association) => `.${association.ext}`)).toEqual([CAMPAIGN_FILE_SUFFIX]);
    expect(config.publish).toMatchObject({ provider: 'generic', url: expect.stringMatching(/^https:\/\//) });
  });

  it('has package.json "main" pointing at the built Electron main', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { main?: string };
    expect(manifest.main).toBe('dist/electron/main.js');
  });
});
