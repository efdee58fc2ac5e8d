// The package as its users get it: `npm pack`ed, unpacked into a project of their own, imported by plain
// `node` (ES module and CommonJS) and type-checked by TypeScript against the shipped declarations. The
// package code under test is the BUILT one (dist/, from `npm run build`), never vitest's transform of it.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExactFolder, listing } from '../core/downloads/engine-harness';
import { temporaryFolder, useEmulator } from '../helpers/fixtures';
import { PACKAGE_NAME, childEnvironment, installPackedPackage, repoRoot, run, stopProcesses, typeCheck, type UserProject } from './user-project';

// Each file takes a second or so to arrive: progress events come while the downloads are still running.
const emulator = useEmulator({ bandwidthBytesPerSecond: 192 * 1024 });
const EXAMPLE_ADDRESS = 'http://127.0.0.1:5000';
const SLOW = { timeout: 90_000 };
/** What only the desktop window, web mode or the command line use. */
const FRONT_END_PACKAGES = ['electron', 'electron-store', 'commander', 'cli-progress', 'ws'];

let project: UserProject;

beforeAll(async () => {
  project = await installPackedPackage();
}, 90_000);

afterAll(stopProcesses);

/** The library guide's example: the first js block of docs/guide/library.md. */
async function guideExample(): Promise<string> {
  const guide = await readFile(path.join(repoRoot, 'docs', 'guide', 'library.md'), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!code) throw new Error('docs/guide/library.md has no js example');
  return code;
}

/** The example pointed at the test's emulator instead of the address it names. */
async function exampleAgainstEmulator(): Promise<string> {
  const code = await guideExample();
  expect(code.split(EXAMPLE_ADDRESS)).toHaveLength(2);
  return code.replace(EXAMPLE_ADDRESS, emulator().url);
}

describe('the packed package', () => {
  it('ships the library, its declarations and the command line, and leaves out the benchmark and sources', () => {
    const paths = project.packedFiles.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(['package.json', 'dist/lib/index.js', 'dist/lib/types/src-main/lib/index.d.ts', 'bin/mlso-dl.js']));
    const sources = paths.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));
    expect([...sources, ...paths.filter((file) => file.startsWith('dist/bench/'))]).toEqual([]);
  });

  it('runs the command line it ships, with only its declared dependencies', async () => {
    const bin = path.join(project.packageFolder, 'bin', 'mlso-dl.js');
    const result = await run(process.execPath, [bin, '--base-url', emulator().url, 'about', '--json'], { cwd: project.folder });
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ version: '1.0.0' });
  });

  it('bundles nothing of Electron or the command line: it imports only Node built-ins and declared dependencies', async () => {
    const manifest = JSON.parse(await readFile(path.join(project.packageFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const bundle = await readFile(path.join(project.packageFolder, 'dist', 'lib', 'index.js'), 'utf8');
    const specifiers = ts.preProcessFile(bundle, true, true).importedFiles.map((imported) => imported.fileName);
    const packages = specifiers.map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
    expect(packages).toEqual(expect.arrayContaining(['axios', 'better-sqlite3', 'zod']));
    for (const name of packages) {
      const isBuiltin = name.startsWith('node:') || builtinModules.includes(name);
      expect(isBuiltin || name in manifest.dependencies, name).toBe(true);
    }
    expect(packages.filter((name) => FRONT_END_PACKAGES.includes(name))).toEqual([]);
  });
});

describe('a user script', () => {
  it("runs the library guide's example with plain node: lists, downloads two files with progress events; a second run fetches nothing", SLOW, async () => {
    const expected = (await listing(emulator(), { 'start-date': '2025-03-24', every: '2hours' })).slice(0, 2);
    expect(expected).toHaveLength(2);
    await writeFile(path.join(project.folder, 'example.mjs'), await exampleAgainstEmulator());
    // defaultStateFolder() follows these: the ledger goes into the test's folder, never the user's own.
    const home = await temporaryFolder();
    const env = childEnvironment({ HOME: home, XDG_DATA_HOME: path.join(home, 'data'), LOCALAPPDATA: home, APPDATA: home });

    const first = await run(process.execPath, ['example.mjs'], { cwd: project.folder, env });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const lines = first.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^\d+ files listed; downloading the first two$/);
    // At least one progress event arrived while the files were still on their way.
    expect(
      lines.some((line) => /^progress: [01] of 2 done, \d+ bytes written$/.test(line)),
      first.stdout,
    ).toBe(true);
    const done = lines.filter((line) => line.startsWith('done: ')).sort();
    expect(done).toEqual(expected.map((file) => expect.stringMatching(new RegExp(`^done: ${file.filename.replace(/\./g, '\\.')} [0-9a-f]{64}$`))));
    await expectExactFolder(emulator(), path.join(project.folder, 'kcor-data'), expected);
    expect((await readdir(home, { recursive: true })).some((file) => file.endsWith('downloads.sqlite'))).toBe(true);

    emulator().resetStats();
    const second = await run(process.execPath, ['example.mjs'], { cwd: project.folder, env });
    expect(second).toMatchObject({ status: 0, stderr: '' });
    expect(
      second.stdout
        .split('\n')
        .filter((line) => line.startsWith('done: '))
        .sort(),
    ).toEqual(done);
    expect(emulator().stats().downloadsStarted).toBe(0);
  });

  it('loads it with require() from CommonJS (Node 22.12+ requires ES modules)', async () => {
    const script = [
      `const { checkFilters, MlsoClient, openDownloadEngine } = require('${PACKAGE_NAME}');`,
      `console.log(JSON.stringify(checkFilters({ cr: ' 2295 ', every: '2hours' })), typeof MlsoClient, typeof openDownloadEngine);`,
    ].join('\n');
    await writeFile(path.join(project.folder, 'require.cjs'), script);
    const result = await run(process.execPath, ['require.cjs'], { cwd: project.folder });
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout.trim()).toBe('{"ok":true,"query":{"cr":"2295","every":"2hours"}} function function');
  });
});

describe('TypeScript', () => {
  // Compiles only if the declarations resolve: each @ts-expect-error must meet a real error, so types that
  // silently became `any` fail the check ("Unused '@ts-expect-error' directive").
  const userFile = `
import { InvalidInputError, MlsoClient, checkFilters, openDownloadEngine, type FileEntry, type ProgressUpdate } from '${PACKAGE_NAME}';

const client = new MlsoClient({ baseUrl: 'http://127.0.0.1:5000' });
const listing = await client.files({ instrument: 'kcor', product: 'pb', filters: { every: '1hour', cr: 2295 } });
const first: FileEntry | undefined = listing.files[0];
const bytes: number | undefined = first?.filesize;
// @ts-expect-error: a file's size is a number, not a string (the schema's types are there)
const wrongSize: string | undefined = first?.filesize;

// @ts-expect-error: the instrument is required
await client.files({ product: 'pb' });

const check = checkFilters({ 'start-date': '2025-03-24' });
const sent: string | undefined = check.ok ? check.query['start-date'] : check.problems[0]?.message;

const { engine, close } = await openDownloadEngine('state', { client, username: () => 'demo@example.com', concurrency: 2 });
engine.on('progress', (update: ProgressUpdate) => console.log(update.overall.done, update.jobs.map((job) => job.state)));
// @ts-expect-error: not an existing-file policy
engine.setExistingFilePolicy('replace');
try {
  await close();
} catch (error) {
  if (error instanceof InvalidInputError) console.log(error.kind, error.problems);
}
console.log(bytes, wrongSize, sent);
`;

  // A CommonJS TypeScript file: tsc compiles this import to require(), which Node 22.12+ allows for ES modules.
  const commonJsFile = `
import { checkFilters, type FilterCheck } from '${PACKAGE_NAME}';
const check: FilterCheck = checkFilters({ cr: 2295 });
// @ts-expect-error: there is no such filter
checkFilters({ carrington: 2295 });
export = check;
`;

  const compilerOptions = { target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], allowJs: true, checkJs: true };

  it("finds the declarations with moduleResolution nodenext (ES module and CommonJS files), and checks the library guide's example", SLOW, async () => {
    await writeFile(path.join(project.folder, 'user.ts'), userFile);
    await writeFile(path.join(project.folder, 'user-commonjs.cts'), commonJsFile);
    await writeFile(path.join(project.folder, 'readme-example.mjs'), await guideExample());
    const tsconfig = path.join(project.folder, 'tsconfig.nodenext.json');
    const files = ['user.ts', 'user-commonjs.cts', 'readme-example.mjs'];
    await writeFile(tsconfig, JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'nodenext', moduleResolution: 'nodenext' }, files }));
    expect(typeCheck(tsconfig)).toEqual([]);
  });

  it('finds the declarations with moduleResolution bundler', SLOW, async () => {
    await writeFile(path.join(project.folder, 'user.ts'), userFile);
    const tsconfig = path.join(project.folder, 'tsconfig.bundler.json');
    await writeFile(tsconfig, JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'esnext', moduleResolution: 'bundler' }, files: ['user.ts'] }));
    expect(typeCheck(tsconfig)).toEqual([]);
  });
});
