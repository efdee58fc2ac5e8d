// `mlso-dl --version` and `--help` must start at once: they may not load the client (axios, tough-cookie, the
// zod schemas), the engine (better-sqlite3), the progress bars, the web server (ws) or the emulator.
// A module loader hook, loaded before mlso-dl, records every module the built command line loads; the project's
// own modules are read from the source maps of the bundle files it loaded.
// Needs the built command line (node scripts/build-main.mjs).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startBuiltCli, stopBuiltCli } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const root = path.resolve(import.meta.dirname, '../..');
const HEAVY_PACKAGES = ['axios', 'zod', 'better-sqlite3', 'cli-progress', 'ws', 'tough-cookie', '@streamparser/json', 'fast-png'];
const HEAVY_SOURCES = [
  'src-main/emulator/',
  'src-main/web/',
  'src-main/core/api/',
  'src-main/core/app/',
  'src-shared/api/schemas.ts',
  'src-main/cli/commands/',
  'src-shared/fits/',
];
/**
 * The only engine modules the program's definition needs: its limits and the default state folder, for the help, and
 * the busy state folder's error (no database behind it), which the exit statuses tell apart.
 */
const LEAF_ENGINE_MODULES = ['src-main/core/downloads/download-limits.ts', 'src-main/core/state/state-folder.ts', 'src-main/core/state/state-folder-busy.ts'];

const emulator = useEmulator();

afterEach(async () => {
  await stopBuiltCli();
});

interface Loaded {
  status: number | string;
  /** npm packages loaded, by name (imported from node_modules or bundled into a loaded file). */
  packages: string[];
  /** The project's source files inside the bundle files that were loaded, relative to the project root. */
  sources: string[];
  /** Node's own modules, e.g. `child_process`. */
  builtins: string[];
}

/** Runs the built mlso-dl with a loader hook that appends each module's URL to a file, and sorts what it saw. */
async function modulesLoadedBy(args: readonly string[]): Promise<Loaded> {
  const folder = await temporaryFolder();
  const log = path.join(folder, 'loaded.txt');
  await writeFile(log, '');
  await writeFile(
    path.join(folder, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
    export async function load(url, context, nextLoad) {
      appendFileSync(${JSON.stringify(log)}, url + '\\n');
      return nextLoad(url, context);
    }`,
  );
  // Node's own modules do not pass the hook: the process lists those it loaded, written out as it ends.
  const builtinsLog = path.join(folder, 'builtins.txt');
  await writeFile(
    path.join(folder, 'probe.mjs'),
    `import { writeFileSync } from 'node:fs';
    import { register } from 'node:module';
    register(${JSON.stringify(pathToFileURL(path.join(folder, 'hooks.mjs')).href)});
    process.on('exit', () => writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.join('\\n')));`,
  );
  const run = startBuiltCli(args, { nodeOptions: ['--import', pathToFileURL(path.join(folder, 'probe.mjs')).href] });
  const status = await run.exited;
  const urls = (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:'));
  const files = urls.map((url) => fileURLToPath(url));
  const bundleFiles = files.filter((file) => file.startsWith(path.join(root, 'dist', 'cli') + path.sep));
  const sources = new Set<string>();
  for (const file of bundleFiles) {
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) sources.add(path.relative(root, path.resolve(path.dirname(file), source)));
  }
  // A package counts as loaded whether it was imported from node_modules or bundled into a loaded file.
  const packageOf = (file: string): string[] => {
    const name = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
    return name ? [name] : [];
  };
  const packages = new Set([...files.flatMap(packageOf), ...[...sources].flatMap(packageOf)]);
  const ownSources = [...sources].filter((source) => !source.startsWith('node_modules/'));
  const builtins = (await readFile(builtinsLog, 'utf8')).split('\n').flatMap((entry) => /^NativeModule (\S+)$/.exec(entry)?.[1] ?? []);
  return { status, packages: [...packages].sort(), sources: ownSources.sort(), builtins };
}

function heavyIn(loaded: Loaded): string[] {
  return [
    ...loaded.packages.filter((name) => HEAVY_PACKAGES.includes(name)),
    ...loaded.sources.filter((source) => HEAVY_SOURCES.some((heavy) => source.startsWith(heavy))),
    ...loaded.sources.filter((source) => /^src-main\/core\/(downloads|state)\//.test(source) && !LEAF_ENGINE_MODULES.includes(source)),
  ];
}

describe('what the built mlso-dl loads', () => {
  it.each([[['--version']], [['files', '--help']], [['quicklook', '--help']], [['--help']], [[]]])(
    '%j loads commander and the program, nothing heavy',
    async (args) => {
      const loaded = await modulesLoadedBy(args);
      expect(loaded.status).toBe(0);
      // The hook saw the run: the command line's own parser and definition were loaded.
      expect(loaded.packages).toContain('commander');
      expect(loaded.sources).toContain('src-main/cli/program.ts');
      expect(heavyIn(loaded)).toEqual([]);
      // commander would load it for executable subcommands, which mlso-dl has none of (see scripts/build-main.mjs).
      expect(loaded.builtins).toContain('fs');
      expect(loaded.builtins).not.toContain('child_process');
    },
  );

  it.each([[['cr', '2295', '--json']], [['header', 'no-such-file.fts']], [['pixel', 'no-such-file.fts', '1', '1']]])(
    '%j, a command without a server, loads no client',
    async (args) => {
      const loaded = await modulesLoadedBy(args);
      expect(loaded.sources.filter((source) => source.startsWith('src-main/cli/commands/')).length).toBeGreaterThan(0);
      expect(loaded.packages.filter((name) => HEAVY_PACKAGES.includes(name) && name !== 'fast-png')).toEqual([]);
      expect(loaded.sources.filter((source) => source.startsWith('src-main/core/api/'))).toEqual([]);
    },
  );

  it('a command that asks the server loads the client when it runs (the probe sees lazily loaded modules)', async () => {
    const loaded = await modulesLoadedBy(['--base-url', emulator().url, 'instruments']);
    expect(loaded.status).toBe(0);
    expect(loaded.packages).toEqual(expect.arrayContaining(['axios', 'zod', 'tough-cookie']));
    expect(loaded.sources).toContain('src-main/core/api/mlso-client.ts');
    // Still not the engine, the web server or the emulator: `instruments` needs none of them.
    expect(loaded.packages).not.toContain('better-sqlite3');
    expect(loaded.sources.filter((source) => source.startsWith('src-main/emulator/') || source.startsWith('src-main/web/'))).toEqual([]);
  });

  it("the client does not load Node's fetch (undici): axios's fetch adapter, which probes it as it loads, is left out", async () => {
    const loaded = await modulesLoadedBy(['--base-url', emulator().url, 'instruments']);
    expect(loaded.status).toBe(0);
    expect(loaded.packages).toContain('axios');
    expect(loaded.builtins.filter((name) => name.includes('undici'))).toEqual([]);
  });
});
