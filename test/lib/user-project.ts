// A user's project with mlso-downloader installed from the tarball `npm pack` makes of this repository: the
// packed files (what `files` ships, built by `npm run build`: the tests never rebuild) are unpacked into the
// project's node_modules/mlso-downloader, as `npm install mlso-downloader-0.1.0.tgz` does. Instead of
// downloading the package's dependencies, each one it declares is linked from this repository's
// node_modules: offline and fast, and a package used but not declared still fails to resolve. @types/node is
// linked too, as the user's own devDependency. Every process started here is stopped by `stopProcesses`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { temporaryFolder } from '../helpers/fixtures';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const PACKAGE_NAME = 'mlso-downloader';

interface PackedFile {
  path: string;
  size: number;
}

export interface UserProject {
  folder: string;
  /** Where the package was unpacked: <folder>/node_modules/mlso-downloader. */
  packageFolder: string;
  /** The files the tarball holds, as `npm pack` listed them. */
  packedFiles: PackedFile[];
}

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

const running = new Set<ChildProcess>();

/** Runs a command to its end with its output captured. */
export function run(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Finished> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? childEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      running.delete(child);
      reject(error);
    });
    child.on('close', (status) => {
      running.delete(child);
      resolve({ status, stdout: Buffer.concat(stdout).toString(), stderr: Buffer.concat(stderr).toString() });
    });
  });
}

/** Kills what `run` started and is still running (a test that failed half-way). */
export async function stopProcesses(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** The test's environment without what would change how a child Node starts or where mlso-dl keeps state. */
export function childEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, MLSO_STATE_DIR: _state, ...rest } = process.env;
  return { ...rest, ...extra };
}

/** `npm pack` of this repository (without its scripts: the build is `npm run build`'s job) into `destination`. */
async function packRepository(destination: string): Promise<{ tarball: string; files: PackedFile[] }> {
  // npm_execpath is npm's own script when the tests run under npm; a bare `npm` otherwise.
  const npmScript = process.env['npm_execpath'];
  const [command, prefix] = npmScript?.endsWith('.js') ? [process.execPath, [npmScript]] : ['npm', []];
  const packed = await run(command, [...prefix, 'pack', '--ignore-scripts', '--json', '--pack-destination', destination], { cwd: repoRoot });
  if (packed.status !== 0) throw new Error(`npm pack failed (${packed.status}): ${packed.stderr}`);
  const [result] = JSON.parse(packed.stdout) as { filename: string; files: PackedFile[] }[];
  if (!result) throw new Error(`npm pack printed no result: ${packed.stdout}`);
  return { tarball: path.join(destination, result.filename), files: result.files };
}

/** Links a package from this repository's node_modules into the project's. */
async function linkFromRepository(projectModules: string, name: string): Promise<void> {
  const link = path.join(projectModules, ...name.split('/'));
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules', ...name.split('/')), link, 'junction');
}

/** A fresh project folder with the packed package installed; `projectPackage` is its package.json. */
export async function installPackedPackage(projectPackage: object = { private: true, type: 'module' }): Promise<UserProject> {
  const folder = await temporaryFolder();
  const { tarball, files } = await packRepository(await temporaryFolder());
  if (!files.some((file) => file.path === 'dist/lib/index.js')) throw new Error('dist/lib is missing: run "npm run build" first (npm test does).');
  const modules = path.join(folder, 'node_modules');
  const packageFolder = path.join(modules, PACKAGE_NAME);
  await mkdir(packageFolder, { recursive: true });
  const unpacked = await run('tar', ['-xzf', tarball, '-C', packageFolder, '--strip-components=1'], { cwd: folder });
  if (unpacked.status !== 0) throw new Error(`tar could not unpack ${tarball}: ${unpacked.stderr}`);
  const manifest = JSON.parse(await readFile(path.join(packageFolder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) await linkFromRepository(modules, name);
  await linkFromRepository(modules, '@types/node');
  await writeFile(path.join(folder, 'package.json'), JSON.stringify(projectPackage, null, 2));
  return { folder, packageFolder, packedFiles: files };
}

/**
 * Type-checks a project as `tsc -p` would, except that third-party declaration files are skipped
 * (skipLibCheck) while the package's own declarations are checked in full: with skipLibCheck alone, a
 * declaration that fails to resolve an import would silently turn into `any` instead of failing.
 * Returns the problems found, formatted as tsc prints them.
 */
export function typeCheck(tsconfigFile: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(tsconfigFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`Cannot read ${tsconfigFile}.`);
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, skipLibCheck: false } });
  const packagePart = `${path.sep}node_modules${path.sep}${PACKAGE_NAME}${path.sep}`;
  const checked = program.getSourceFiles().filter((file) => {
    const name = path.normalize(file.fileName);
    return name.includes(packagePart) || !name.includes(`${path.sep}node_modules${path.sep}`);
  });
  const diagnostics = [
    ...parsed.errors,
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...checked.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  const host = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => path.dirname(tsconfigFile), getNewLine: () => '\n' };
  return diagnostics.map((diagnostic) => ts.formatDiagnostic(diagnostic, host).trim());
}
