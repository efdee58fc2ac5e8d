// `mlso-dl --version` and `--help` must start at once: they may not load the client (axios, tough-cookie, the
// zod schemas), the engine (better-sqlite3), the progress bars, the web server (ws) or the emulator.
// The command line is two scripts (scripts/cli-bundles.mjs): dist/cli/mlso-dl.cjs, what every start needs, and
// dist/cli/mlso-dl-commands.cjs, loaded by a command that runs, in which esbuild wraps each module in a function named
// after its path, run once when the module is first needed; modules that are not wrapped run as their script loads.
// V8's coverage counts the calls of each wrapper, so a module counts as loaded when its script was loaded and it is
// not wrapped or its wrapper ran. Packages left in node_modules are those require() loaded
// (require.cache, listed as the process ends) or the loader hook saw imported.
// Needs the built command line (node scripts/build-main.mjs).
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bin } from '../helpers/built-cli';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';

const root = path.resolve(import.meta.dirname, '../..');
/**
 * Node's own modules no start needs: child_process (commander's, for executable subcommands mlso-dl has none of, see
 * scripts/build-main.mjs), crypto (hashing, for campaigns and downloads), and util.parseArgs, one of the parts of
 * node:util that an ES module import of it loads (worker_threads is not a sign of that: the probe's hooks load it).
 */
const HEAVY_BUILTINS = ['child_process', 'crypto', 'internal/util/parse_args/parse_args'];
const HEAVY_PACKAGES = ['axios', 'zod', 'better-sqlite3', 'cli-progress', 'ws', 'tough-cookie', '@streamparser/json', 'fast-png'];
const HEAVY_SOURCES = [
  'src-main/emulator/',
  'src-main/web/',
  'src-main/core/api/',
  'src-main/core/app/',
  'src-shared/api/schemas.ts',
  'src-main/cli/commands/',
  'src-science/fits/',
];
/**
 * The only engine modules the program's definition needs: its limits and the default state folder, for the help, and
 * the busy state folder's error (no database behind it), which the exit statuses tell apart.
 */
const LEAF_ENGINE_MODULES = ['src-main/core/downloads/download-limits.ts', 'src-main/core/state/state-folder.ts', 'src-main/core/state/state-folder-busy.ts'];

const emulator = useEmulator();
const startUpScript = path.join(root, 'dist', 'cli', 'mlso-dl.cjs');
const commandsScript = path.join(root, 'dist', 'cli', 'mlso-dl-commands.cjs');

interface Loaded {
  status: number | string;
  /** npm packages loaded, by name (imported from node_modules or bundled into a loaded file). */
  packages: string[];
  /** The project's source files inside the bundle files that were loaded, relative to the project root. */
  sources: string[];
  /** Node's own modules, e.g. `child_process`. */
  builtins: string[];
}

/** Runs the built mlso-dl with V8's coverage, a loader hook and a list of what require() loaded, and sorts what it saw. */
async function modulesLoadedBy(args: readonly string[]): Promise<Loaded> {
  const folder = await temporaryFolder();
  const coverage = path.join(folder, 'coverage');
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
  // Node's own modules and what require() loaded do not pass the hook: the process lists those as it ends.
  const builtinsLog = path.join(folder, 'builtins.txt');
  const requiredLog = path.join(folder, 'required.txt');
  await writeFile(
    path.join(folder, 'probe.mjs'),
    `import { writeFileSync } from 'node:fs';
    import { createRequire, register } from 'node:module';
    register(${JSON.stringify(pathToFileURL(path.join(folder, 'hooks.mjs')).href)});
    const require = createRequire(import.meta.url);
    process.on('exit', () => {
      writeFileSync(${JSON.stringify(builtinsLog)}, process.moduleLoadList.join('\\n'));
      writeFileSync(${JSON.stringify(requiredLog)}, Object.keys(require.cache).join('\\n'));
    });`,
  );
  const child = spawn(process.execPath, ['--import', pathToFileURL(path.join(folder, 'probe.mjs')).href, bin, ...args], {
    stdio: 'ignore',
    env: { ...process.env, NODE_V8_COVERAGE: coverage },
  });
  const status = await new Promise<number | string>((resolve) => child.on('close', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  const imported = (await readFile(log, 'utf8')).split('\n').filter((url) => url.startsWith('file:'));
  const required = (await readFile(requiredLog, 'utf8')).split('\n').filter((file) => path.isAbsolute(file));
  const files = [...imported.map((url) => fileURLToPath(url)), ...required];
  const scripts = await scriptsRun(coverage);
  // Without a record of the start-up script every file would count as not run: a test that could not tell.
  if (!scripts.has(startUpScript)) throw new Error(`V8's coverage has no record of ${startUpScript}: was it built and run?`);
  const inScripts = await Promise.all([...scripts].map(([script, calls]) => whatRanIn(script, calls)));
  const ran = { sources: inScripts.flatMap((run) => run.sources), packages: inScripts.flatMap((run) => run.packages) };
  // A package counts as loaded whether it was loaded from node_modules or bundled into the script and run.
  const packages = new Set([...files.flatMap(packageOf), ...ran.packages]);
  const builtins = (await readFile(builtinsLog, 'utf8')).split('\n').flatMap((entry) => /^NativeModule (\S+)$/.exec(entry)?.[1] ?? []);
  return { status, packages: [...packages].sort(), sources: ran.sources.sort(), builtins };
}

/** The command line's scripts that V8's coverage saw loaded, each with the calls of its functions by name. */
async function scriptsRun(coverageFolder: string): Promise<Map<string, Map<string, number>>> {
  const scripts = new Map<string, Map<string, number>>();
  for (const name of await readdir(coverageFolder)) {
    const { result } = JSON.parse(await readFile(path.join(coverageFolder, name), 'utf8')) as {
      result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
    };
    for (const { url, functions } of result) {
      if (!url.startsWith('file:')) continue;
      const script = fileURLToPath(url);
      if (script !== startUpScript && script !== commandsScript) continue;
      const calls = scripts.get(script) ?? new Map<string, number>();
      for (const fn of functions) {
        const name = fromNodeModules(fn.functionName);
        calls.set(name, (calls.get(name) ?? 0) + fn.ranges[0]!.count);
      }
      scripts.set(script, calls);
    }
  }
  return scripts;
}

/**
 * What of `script` ran, given the calls of its functions: the project's files bundled into it, relative to the
 * project, and the npm packages. A file without a wrapper of its own runs as the script loads; one with a wrapper ran
 * if V8's coverage saw it called. A package may be known to the source map by its own sources (tough-cookie's
 * lib/*.ts) while its wrappers are named after the files bundled (dist/index.cjs): a package ran if one of its
 * wrappers did, or if it has none.
 */
async function whatRanIn(script: string, wrapperCalls: Map<string, number>): Promise<{ sources: string[]; packages: string[] }> {
  const map = JSON.parse(await readFile(`${script}.map`, 'utf8')) as { sources: string[] };
  const bundled = map.sources.map((source) => fromNodeModules(path.relative(root, path.resolve(path.dirname(script), source))));
  const sources = bundled.filter((source) => !source.startsWith('node_modules/') && (wrapperCalls.get(source) ?? 1) > 0);
  const packages = new Set(bundled.flatMap(packageOf));
  const ran = [...packages].filter((name) => {
    const wrappers = [...wrapperCalls].filter(([wrapper]) => wrapper.startsWith(`node_modules/${name}/`));
    return wrappers.length === 0 || wrappers.some(([, calls]) => calls > 0);
  });
  return { sources, packages: ran };
}

/**
 * A package file's path from its node_modules on: esbuild names a file by where it really is, which for a
 * node_modules linked from elsewhere (a second checkout of the project) is outside the project (`../x/node_modules/`).
 */
function fromNodeModules(file: string): string {
  const at = file.indexOf('node_modules/');
  return at > 0 && file.slice(0, at).split('/').includes('..') ? file.slice(at) : file;
}

/** The npm package a file belongs to, if any. */
function packageOf(file: string): string[] {
  const name = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
  return name ? [name] : [];
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
      expect(loaded.builtins).toContain('fs');
      expect(loaded.builtins.filter((name) => HEAVY_BUILTINS.includes(name))).toEqual([]);
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
