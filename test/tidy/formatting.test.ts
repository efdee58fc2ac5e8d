// The tree is formatted by Prettier (.prettierrc.json, with the Svelte plugin), and `npm run lint` runs
// `prettier --check .`: this holds that the check fires, with the project's own configuration and ignore files, on a
// misformatted file of each kind the tree holds, passes the same file formatted, and leaves no source folder out.
import path from 'node:path';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };

async function optionsFor(filePath: string): Promise<prettier.Options> {
  const file = path.resolve(filePath);
  const config = await prettier.resolveConfig(file, { editorconfig: false });
  expect(config, `no Prettier configuration applies to ${filePath}`).not.toBeNull();
  return { ...config, filepath: file };
}

const misformatted: [kind: string, filePath: string, code: string][] = [
  ['TypeScript', 'src-main/core/planted.ts', 'export const planted = {a:1,b:"two"}\n'],
  ['Svelte', 'src-renderer/components/Planted.svelte', '<script lang="ts">\nlet count=$state(0)\n</script>\n<button onclick={()=>count++}>{count}</button>\n'],
  ['a script', 'scripts/planted.mjs', 'export default function planted(){return 1}\n'],
  ['a test', 'test/tidy/planted.test.ts', "import {it} from 'vitest'\nit('x',()=>{})\n"],
  ['JSON', 'planted.json', '{"a":[1,\n2]}\n'],
];

describe('formatting', () => {
  it('is checked by npm run lint', () => {
    expect(packageJson.scripts.lint).toMatch(/\bprettier --check \.(\s|$)/);
  });

  it.each(misformatted)('is refused for a misformatted %s file, and passed once Prettier formats it', async (_kind, filePath, code) => {
    const options = await optionsFor(filePath);
    expect(await prettier.check(code, options)).toBe(false);
    const formatted = await prettier.format(code, options);
    expect(formatted).not.toBe(code);
    expect(await prettier.check(formatted, options)).toBe(true);
  });

  it('covers every source folder, and leaves out only the fixtures, the prose and npm’s lock file', async () => {
    const ignored = async (filePath: string): Promise<boolean> =>
      (await prettier.getFileInfo(path.resolve(filePath), { ignorePath: ['.gitignore', '.prettierignore'], plugins: ['prettier-plugin-svelte'] })).ignored;
    for (const checked of [
      'src-main/core/errors.ts',
      'src-shared/filters/filter-table.ts',
      'src-renderer/shell/App.svelte',
      'scripts/build-main.mjs',
      'test/tidy/formatting.test.ts',
      'package.json',
    ]) {
      expect(await ignored(checked), checked).toBe(false);
    }
    for (const left of [
      'test/fixtures/listing-columns/kcor-pb-every-3hours.txt',
      'README.md',
      'package-lock.json',
      'dist/cli.js',
      'node_modules/zod/package.json',
    ]) {
      expect(await ignored(left), left).toBe(true);
    }
  });
});
