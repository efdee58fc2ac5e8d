// No module of the source imports itself through others, not even for a type: a cycle means neither file can be
// read, moved or ported without the other, and the science layer is meant to be taken whole by a port. Imports are
// read by TypeScript's own pre-processor (import, import type, export from, import(), require), in .ts files and in
// the script blocks of Svelte components.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src-main', 'src-shared', 'src-science', 'src-renderer'];

/** Imports of files that are not modules of the source: the renderer's style sheet and the like. */
const ASSET = /\.(css|svg|png|json|html)$/;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|svelte)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** What TypeScript reads as code in a file: a component's <script> blocks, a module whole. */
function codeOf(file: string, text: string): string {
  if (!file.endsWith('.svelte')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
}

/** The relative specifiers a file imports, of every kind, a bundler's query (`?worker`) dropped. */
function relativeImports(file: string, text: string): string[] {
  const { importedFiles } = ts.preProcessFile(codeOf(file, text), true, true);
  return importedFiles.map((reference) => reference.fileName.replace(/\?.*$/, '')).filter((specifier) => specifier.startsWith('.'));
}

/** The file a specifier names, as the bundler resolves it (no extension, a .svelte.ts rune module, an index). */
function resolved(files: ReadonlyMap<string, string>, from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return [base, `${base}.ts`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

interface ImportGraph {
  edges: Map<string, string[]>;
  /** "file imports specifier" for each relative import that names no source file and no asset. */
  unresolved: string[];
}

function importGraph(files: ReadonlyMap<string, string>): ImportGraph {
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const specifier of relativeImports(file, text)) {
      const target = resolved(files, file, specifier);
      if (target) targets.push(target);
      else if (!ASSET.test(specifier)) unresolved.push(`${file} imports ${specifier}`);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}

/** The strongly connected groups of files (Tarjan): a group of two or more, or a file importing itself, is a cycle. */
function cyclicGroups(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const order = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    lowest.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (onStack.has(next)) {
        lowest.set(file, Math.min(lowest.get(file)!, order.get(next)!));
      }
    }
    if (lowest.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edges.get(file)?.includes(file)) groups.push(group.sort());
  };
  for (const file of edges.keys()) if (!order.has(file)) visit(file);
  return groups;
}

/** One cycle through a group, from its first file back to it: "a.ts -> b.ts -> a.ts". */
function cycleThrough(group: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string {
  const [start] = group;
  const cameFrom = new Map<string, string>();
  const queue = [start!];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const next of edges.get(file) ?? []) {
      if (!group.includes(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const between: string[] = [];
  for (let file = cameFrom.get(start!)!; file !== start; file = cameFrom.get(file)!) between.unshift(file);
  return [start, ...between, start].join(' -> ');
}

function importCycles(files: ReadonlyMap<string, string>): { cycles: string[]; unresolved: string[] } {
  const { edges, unresolved } = importGraph(files);
  const cycles = cyclicGroups(edges)
    .map((group) => cycleThrough(group, edges))
    .sort();
  return { cycles, unresolved };
}

describe('modules of the source', () => {
  it('never import themselves through others, type imports included', () => {
    const files = new Map(ROOTS.flatMap(sourceFiles).map((file) => [file, readFileSync(file, 'utf8')] as const));
    expect(files.size).toBeGreaterThan(300);
    const { cycles, unresolved } = importCycles(files);
    expect(unresolved, 'imports this test cannot follow: teach resolved() the rule').toEqual([]);
    expect(cycles).toEqual([]);
  });

  it('are caught in a cycle however its imports are written', () => {
    const planted = new Map([
      ['src-science/fits/reader.ts', "import { tiles } from './tiles';\nexport interface Reader {}\n"],
      ['src-science/fits/tiles.ts', "import type { Reader } from './reader';\nexport const tiles = 1;\n"],
      ['src-main/emulator/server.ts', "export { handle } from './control';\n"],
      ['src-main/emulator/control.ts', "const later = () => import('./server');\nexport const handle = later;\n"],
      ['src-renderer/components/Dialog.svelte', '<script lang="ts">\n  import { player } from \'../state/player.svelte\';\n</script>\n<p>{player}</p>\n'],
      ['src-renderer/state/player.svelte.ts', "import { worker } from '../workers';\nexport const player = worker;\n"],
      ['src-renderer/workers/index.ts', "import '../components/Dialog.svelte';\nimport url from './engine.ts?worker&inline';\nexport const worker = url;\n"],
      ['src-renderer/workers/engine.ts', "import { tiles } from '../../src-science/fits/tiles';\nexport const engine = tiles;\n"],
      ['src-shared/self.ts', "import { self } from './self';\nexport { self };\n"],
    ]);
    expect(importCycles(planted)).toEqual({
      cycles: [
        'src-main/emulator/control.ts -> src-main/emulator/server.ts -> src-main/emulator/control.ts',
        'src-renderer/components/Dialog.svelte -> src-renderer/state/player.svelte.ts -> src-renderer/workers/index.ts -> src-renderer/components/Dialog.svelte',
        'src-science/fits/reader.ts -> src-science/fits/tiles.ts -> src-science/fits/reader.ts',
        'src-shared/self.ts -> src-shared/self.ts',
      ],
      unresolved: [],
    });
  });

  it('are followed through every import, or the test says which one it cannot follow', () => {
    const planted = new Map([['src-renderer/main.ts', "import './app.css';\nimport { gone } from './lib/gone';\nexport const x = gone;\n"]]);
    expect(importCycles(planted).unresolved).toEqual(['src-renderer/main.ts imports ./lib/gone']);
  });
});
