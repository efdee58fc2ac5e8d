// `npm run lint` runs knip, which fails on a file nothing loads, an export nothing imports and a dependency
// nothing uses. Here knip runs, with this repository's knip.jsonc, on a copy of the project with one of each
// planted, and must name all three, while the library's public exports (its API) stay unreported.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const knipBin = path.join(root, 'node_modules', 'knip', 'bin', 'knip.js');

interface KnipIssue {
  file: string;
  files: unknown[];
  exports: { name: string }[];
  types: { name: string }[];
  devDependencies: { name: string }[];
}

let copy: string;
let issues: KnipIssue[];

/** The files git would see (tracked, or new and not ignored), so build output and node_modules stay behind. */
async function projectFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 16 << 20 });
  return stdout.split('\0').filter((file) => file !== '');
}

beforeAll(async () => {
  copy = await mkdtemp(path.join(tmpdir(), 'mlso-knip-'));
  for (const file of await projectFiles()) {
    await cp(path.join(root, file), path.join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree but not yet in git's index
    });
  }
  await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');

  await writeFile(path.join(copy, 'src-main/core/planted-unused-file.ts'), 'export const NOBODY_LOADS_THIS = 1;\n');
  const errors = path.join(copy, 'src-main/core/errors.ts');
  await writeFile(errors, `${await readFile(errors, 'utf8')}\nexport const PLANTED_UNUSED_EXPORT = 1;\n`);
  const manifestFile = path.join(copy, 'package.json');
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as { devDependencies: Record<string, string> };
  manifest.devDependencies['planted-unused-package'] = '1.0.0';
  await writeFile(manifestFile, JSON.stringify(manifest, null, 2));

  // knip exits 1 when it finds something, which it must here.
  const result = await run(process.execPath, [knipBin, '--reporter', 'json', '--no-progress'], { cwd: copy, maxBuffer: 64 << 20 }).catch(
    (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code }),
  );
  issues = (JSON.parse(result.stdout) as { issues: KnipIssue[] }).issues;
}, 120_000);

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

const issueOf = (file: string) => issues.find((issue) => issue.file === file);

describe('knip, as npm run lint runs it', () => {
  it('is part of npm run lint', async () => {
    const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts['lint']).toMatch(/(^|&&\s*)knip(\s|$)/);
  });

  it('names a planted file nothing loads', () => {
    expect(issues.some((issue) => issue.file === 'src-main/core/planted-unused-file.ts' && issue.files.length > 0)).toBe(true);
  });

  it('names a planted export nothing imports', () => {
    expect(issueOf('src-main/core/errors.ts')?.exports.map(({ name }) => name)).toEqual(['PLANTED_UNUSED_EXPORT']);
  });

  it('names a planted dependency nothing uses', () => {
    expect(issueOf('package.json')?.devDependencies.map(({ name }) => name)).toContain('planted-unused-package');
  });

  it("leaves the library's public exports alone", () => {
    expect(issueOf('src-main/lib/index.ts')).toBeUndefined();
  });
});
