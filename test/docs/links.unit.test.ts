// Every relative link of the project's Markdown leads somewhere: the file (or folder) exists, and a #anchor matches a
// heading of the file it points into, by the slug GitHub makes of the heading. Links in code are not links.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../..');

/** The Markdown whose links are checked: the README, SECURITY, CONTRIBUTING, CHANGELOG and everything under docs/. */
function checkedFiles(): string[] {
  const top = ['README.md', 'SECURITY.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].filter((file) => existsSync(path.join(projectRoot, file)));
  const docsFolder = path.join(projectRoot, 'docs');
  const docs = existsSync(docsFolder)
    ? readdirSync(docsFolder, { recursive: true, encoding: 'utf8' })
        .filter((name) => name.endsWith('.md'))
        .map((name) => path.posix.join('docs', name.split(path.sep).join('/')))
    : [];
  return [...top, ...docs.sort()];
}

/** The text outside fenced code blocks, line by line (a fenced line becomes empty, so line numbers hold). */
function outsideFences(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) {
      fence = opening;
      return '';
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return '';
    }
    return line;
  });
}

/** The slug GitHub gives a heading: lower case, punctuation and symbols dropped, each space a hyphen. */
function headingSlug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor a file's headings make, with GitHub's -1, -2 ... for a repeated one. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/** The links of a file that point inside the project: inline `[text](target)` and reference `[name]: target`. */
function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  outsideFences(markdown).forEach((text, index) => {
    const prose = text.replace(/(`+)[\s\S]*?\1/g, '');
    const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(prose)?.[1];
    for (const target of reference === undefined ? targets : [...targets, reference]) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
      links.push({ line: index + 1, target });
    }
  });
  return links;
}

/** What is wrong with each relative link of `markdown`, read as the file `file` (a path from the project's root). */
function deadLinks(file: string, markdown: string, root = projectRoot): string[] {
  const problems: string[] = [];
  for (const { line, target } of relativeLinks(markdown)) {
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const into = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(pathPart)));
    const where = `${file}:${line}: ${target}`;
    if (into.startsWith('../')) {
      problems.push(`${where} leads out of the project`);
      continue;
    }
    const onDisk = path.join(root, into);
    if (pathPart !== '' && !existsSync(onDisk)) {
      problems.push(`${where}: ${into} does not exist`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (pathPart !== '' && (statSync(onDisk).isDirectory() || !into.endsWith('.md'))) {
      problems.push(`${where}: an anchor into ${into}, which has no headings`);
      continue;
    }
    const anchors = anchorsOf(into === file ? markdown : readFileSync(onDisk, 'utf8'));
    if (!anchors.has(decodeURIComponent(anchor))) problems.push(`${where}: ${into} has no heading #${anchor}`);
  }
  return problems;
}

/** Source files the text names in code spans (`listing-enqueuer.ts`, `core/downloads/ledger.ts`): a rename leaves them behind. */
function missingSourceNames(file: string, markdown: string, tracked: readonly string[]): string[] {
  const problems: string[] = [];
  outsideFences(markdown).forEach((line, index) => {
    for (const [, name] of line.matchAll(/`([\w./-]+\.(?:ts|svelte|mjs|cjs|js|py|sh))`/g)) {
      if (name!.startsWith('dist/')) continue; // built, not kept in the project
      if (!tracked.some((each) => each === name || each.endsWith(`/${name!}`))) problems.push(`${file}:${index + 1}: ${name!} names no file of the project`);
    }
  });
  return problems;
}

function trackedFiles(): string[] {
  const files: string[] = [];
  for (const top of readdirSync(projectRoot)) {
    if (top === 'node_modules' || top === 'dist' || top.startsWith('.')) continue;
    const full = path.join(projectRoot, top);
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full, { recursive: true, encoding: 'utf8' })) files.push(path.posix.join(top, name.split(path.sep).join('/')));
    } else {
      files.push(top);
    }
  }
  return files;
}

describe("the Markdown's relative links", () => {
  it('name only source files that exist', () => {
    const tracked = trackedFiles();
    const problems = checkedFiles().flatMap((file) => missingSourceNames(file, readFileSync(path.join(projectRoot, file), 'utf8'), tracked));
    expect(problems).toEqual([]);
    expect(missingSourceNames('PLANTED.md', 'The `listing-intake.ts` module and `core/downloads/download-engine.ts`.', tracked)).toEqual([
      'PLANTED.md:1: listing-intake.ts names no file of the project',
    ]);
  });

  it('each lead to a file that exists and a heading it holds', () => {
    const files = checkedFiles();
    expect(files).toContain('README.md');
    const problems = files.flatMap((file) => deadLinks(file, readFileSync(path.join(projectRoot, file), 'utf8')));
    expect(problems).toEqual([]);
  });

  it('finds a dead file, a dead anchor and a link out of the project, not links in code or to the web', () => {
    const planted = [
      '# Planted',
      'See [the guide](docs/no-such-guide.md), [a section](#no-such-section) and [up](../outside.md).',
      '[the README](README.md#five-minutes-on-the-demo-server) and [here](#planted) and [web](https://example.org/x.md)',
      '`[code](nowhere.md)`',
      '```sh',
      'echo "[fenced](nowhere.md)"',
      '```',
      '[ref]: also-missing.md',
    ].join('\n');
    expect(deadLinks('PLANTED.md', planted)).toEqual([
      'PLANTED.md:2: docs/no-such-guide.md: docs/no-such-guide.md does not exist',
      'PLANTED.md:2: #no-such-section: PLANTED.md has no heading #no-such-section',
      'PLANTED.md:2: ../outside.md leads out of the project',
      'PLANTED.md:8: also-missing.md: also-missing.md does not exist',
    ]);
  });

  it('makes the slugs GitHub makes', () => {
    expect(headingSlug("A lab's nightly mirror")).toBe('a-labs-nightly-mirror');
    expect(headingSlug('Looking at files and rotations: `quicklook`, `header`, `pixel`, `movie`, `cr`')).toBe(
      'looking-at-files-and-rotations-quicklook-header-pixel-movie-cr',
    );
    expect(headingSlug('What was and was not verified on this project’s build machines')).toBe('what-was-and-was-not-verified-on-this-projects-build-machines');
    expect(headingSlug('Five minutes on the demo server')).toBe('five-minutes-on-the-demo-server');
    expect(anchorsOf('# Notes\n## Notes\n## Notes')).toEqual(new Set(['notes', 'notes-1', 'notes-2']));
  });
});
