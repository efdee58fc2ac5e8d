// No two folders of the source import each other: a folder is either below another or above it, never both, so each
// can be read (and changed) knowing only what is below it. A folder is a second level under src-shared, src-renderer
// and src-main (src-main/cli, src-shared/filters), and a third under src-main/core (core/downloads, core/state). The
// lint's import rules hold the floors; this holds every pair of folders, including ones no rule names.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src-main', 'src-shared', 'src-science', 'src-renderer'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|svelte)$/.test(entry.name) ? [full] : [];
  });
}

function folderOf(file: string): string {
  const parts = file.split(path.sep);
  if (parts[0] === 'src-main' && parts[1] === 'core' && parts.length > 3) return parts.slice(0, 3).join('/');
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]!;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

/** For every pair of folders that import each other, one file of each direction: "a -> b (x.ts), b -> a (y.ts)". */
function mutualFolders(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string>();
  for (const [file, text] of files) {
    for (const match of text.matchAll(IMPORT)) {
      const target = path.normalize(path.join(path.dirname(file), match[1] ?? match[2] ?? match[3]!));
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from !== to && !edges.has(`${from} -> ${to}`)) edges.set(`${from} -> ${to}`, file);
    }
  }
  const pairs: string[] = [];
  for (const [edge, file] of edges) {
    const [from, to] = edge.split(' -> ') as [string, string];
    const back = edges.get(`${to} -> ${from}`);
    if (back && from < to) pairs.push(`${edge} (${file}), ${to} -> ${from} (${back})`);
  }
  return pairs.sort();
}

describe('folders of the source', () => {
  it('never import each other', () => {
    const files = new Map(ROOTS.flatMap(sourceFiles).map((file) => [file, readFileSync(file, 'utf8')] as const));
    expect(files.size).toBeGreaterThan(250);
    expect(mutualFolders(files)).toEqual([]);
  });

  it('are caught importing each other, however the import is written', () => {
    const planted = new Map([
      ['src-shared/coverage/bins.ts', "import type { Span } from '../filters/span';\n"],
      ['src-shared/filters/span.ts', "export { binsOf } from '../coverage/bins';\n"],
      ['src-main/core/downloads/engine.ts', "const later = await import('../campaigns/store');\n"],
      ['src-main/core/campaigns/store.ts', "import {\n  DownloadEngine,\n} from '../downloads/engine';\n"],
      ['src-main/cli/run.ts', "import '../core/app/side-effect';\n"],
      ['src-main/core/app/side-effect.ts', "import { a } from './nearby';\n"],
    ]);
    expect(mutualFolders(planted)).toEqual([
      'src-main/core/campaigns -> src-main/core/downloads (src-main/core/campaigns/store.ts), src-main/core/downloads -> src-main/core/campaigns (src-main/core/downloads/engine.ts)',
      'src-shared/coverage -> src-shared/filters (src-shared/coverage/bins.ts), src-shared/filters -> src-shared/coverage (src-shared/filters/span.ts)',
    ]);
  });
});
