// Comments say why, never history: no commit hash and no date of work in a source comment (measured figures belong
// in docs/benchmarks.md, what changed in the changelog). The comments are those TypeScript's scanner finds, so a hash
// or a date in a string, a template or a regular expression is data and never looked at.
//
// The rules:
// - a commit hash is a run of 7 to 40 lowercase hexadecimal digits holding at least one letter and one digit, not
//   after `0x` and not inside a longer word or number (so `0xdeadbeef`, `sha256`, `1024` and `1.234568e-8` pass);
// - a date of work is a YYYY-MM-DD on or after the day the project began. The dates comments give as examples of data
//   are observation dates, which come before it (the emulator's days of March 2025, the Unix epoch, a rotation of
//   1853), so the rule needs no marker to tell them apart.
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { svelteComments, typeScriptComments, type SourceComment } from '../helpers/source-comments';

const root = new URL('../../', import.meta.url);

/** The day of the project's first commit: no date of work can be earlier. */
const PROJECT_BEGAN = '2026-11-22';

const COMMIT_HASH = /(?<![0-9A-Za-z_.])(?!0x)(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z_])/g;
const DATE = /(?<![0-9])(\d{4})-(\d{2})-(\d{2})(?![0-9])/g;

/** What a comment carries that is history: each commit hash and each date of work, as found. */
function historyIn(text: string): string[] {
  const found = [...text.matchAll(COMMIT_HASH)].map((match) => `commit hash ${match[0]}`);
  for (const match of text.matchAll(DATE)) if (match[0] >= PROJECT_BEGAN) found.push(`date ${match[0]}`);
  return found;
}

function commentsOf(path: string, source: string): SourceComment[] {
  return path.endsWith('.svelte') ? svelteComments(source) : typeScriptComments(source);
}

/** The TypeScript and Svelte files of every src-* folder, and the scripts. */
async function sourceFiles(): Promise<string[]> {
  const folders = (await readdir(root)).filter((name) => name.startsWith('src-') || name === 'scripts');
  const files: string[] = [];
  for (const folder of folders) {
    for (const file of await readdir(new URL(`${folder}/`, root), { recursive: true })) {
      if (/\.(ts|svelte|mjs)$/.test(file)) files.push(`${folder}/${file}`);
    }
  }
  return files.sort();
}

describe('comments in the source', () => {
  it('carry no commit hash and no date of work', async () => {
    const files = await sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    const problems: string[] = [];
    for (const file of files) {
      const source = await readFile(new URL(file, root), 'utf8');
      for (const comment of commentsOf(file, source)) {
        for (const problem of historyIn(comment.text)) problems.push(`${file}:${comment.line}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the history rule', () => {
  it.each([
    ['// an index over every row did (10ad18f).', ['commit hash 10ad18f']],
    ['/** Fixed in 3f2a9c1e0b7d4a6f8e5c2b1a0d9f8e7c6b5a4d3e. */', ['commit hash 3f2a9c1e0b7d4a6f8e5c2b1a0d9f8e7c6b5a4d3e']],
    ['// measured on 2026-12-06 on the build machine', ['date 2026-12-06']],
  ])('finds the history in %s', (comment, expected) => {
    expect(historyIn(comment)).toEqual(expected);
  });

  it.each([
    "// the emulator's observing days end 2025-03-24",
    '/** Mondays: 1970-01-05 was one. */',
    '// BLANK = -9223372036854775808, a 0xdeadbeef0 word, sha256, 20250324_210304_kcor, 1.234568e-8',
    '// 1024 x 1024 float32, a colour ffffff, cafebabe (no digit), a9b8c7d6e5f4z (one word)',
  ])('leaves data alone in %s', (comment) => {
    expect(historyIn(comment)).toEqual([]);
  });

  it('reads comments, not strings, templates or regular expressions', () => {
    const code = [
      "const url = 'https://x/10ad18f'; // after the string: 2026-12-01",
      'const t = `${a}//not 10ad18f ${`${b}`} // still text`; /* 1234abc */',
      'const r = /\\/\\/ 10ad18f/g; const q = a / b; // c0ffee1',
    ].join('\n');
    expect(typeScriptComments(code).map((comment) => [comment.line, historyIn(comment.text)])).toEqual([
      [1, ['date 2026-12-01']],
      [2, ['commit hash 1234abc']],
      [3, ['commit hash c0ffee1']],
    ]);
  });

  it("reads a Svelte file's script, markup and style comments, on their own lines", () => {
    const component = [
      '<script lang="ts">',
      "  const s = '// 10ad18f';",
      '  // script 1111aaa',
      '</script>',
      '<!-- markup 2222bbb -->',
      '<p title="// 3333ccc">x</p>',
      '<style>',
      '  /* style 4444ddd */',
      '</style>',
    ].join('\n');
    expect(svelteComments(component).map((comment) => [comment.line, historyIn(comment.text)])).toEqual([
      [3, ['commit hash 1111aaa']],
      [5, ['commit hash 2222bbb']],
      [8, ['commit hash 4444ddd']],
    ]);
  });
});
