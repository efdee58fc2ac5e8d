// The renderer's features may use only the features eslint.config.js declares for them; this holds the other half:
// each declared use is one the code makes, so the map says how the features really depend on each other and a use
// that is no longer needed is taken out of it (fewer is better) instead of quietly allowing a new one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const RENDERER = 'src-renderer';
const config = path.resolve(import.meta.dirname, '../../eslint.config.js');
const { RENDERER_FEATURE_USES } = (await import(config)) as { RENDERER_FEATURE_USES: Record<string, string[]> };

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|svelte)$/.test(entry.name) ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"](\.[^'"]+)['"]/g;

/** The renderer's top folder a path lies in, or null outside one (the entry files, src-shared). */
function featureOf(file: string): string | null {
  const parts = path.relative(RENDERER, file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0]! : null;
}

/** For each feature, the other features (not lib, not the shell) its files import, sorted. */
function featureUses(files: ReadonlyMap<string, string>): Record<string, string[]> {
  const uses: Record<string, Set<string>> = {};
  for (const [file, text] of files) {
    const from = featureOf(file);
    if (!from) continue;
    uses[from] ??= new Set();
    for (const match of text.matchAll(IMPORT)) {
      const to = featureOf(path.normalize(path.join(path.dirname(file), match[1] ?? match[2] ?? match[3]!)));
      if (to && to !== from && to !== 'lib' && to !== 'shell') uses[from].add(to);
    }
  }
  return Object.fromEntries(Object.entries(uses).map(([feature, used]) => [feature, [...used].sort()]));
}

const sorted = (map: Record<string, string[]>) => Object.fromEntries(Object.entries(map).map(([key, list]) => [key, [...list].sort()]));

describe("the renderer's declared feature uses (RENDERER_FEATURE_USES in eslint.config.js)", () => {
  it('are the uses the code makes, no more', () => {
    const files = new Map(sourceFiles(RENDERER).map((file) => [file, readFileSync(file, 'utf8')] as const));
    const { shell: _shell, ...features } = featureUses(files);
    expect(features).toEqual(sorted(RENDERER_FEATURE_USES));
  });

  it('are told from the imports, however they are written', () => {
    const planted = new Map([
      ['src-renderer/browse/a.ts', "import { b } from '../downloads/b';\nimport { f } from '../lib/format';\n"],
      ['src-renderer/browse/c.svelte', "<script>\n  const later = import('../quicklook/d');\n</script>\n"],
      ['src-renderer/quicklook/workers/e.ts', "import '../../campaigns/f';\nimport { g } from '../g';\n"],
      ['src-renderer/lib/h.ts', "import type { J } from '../../src-shared/downloads/j';\n"],
      ['src-renderer/main.ts', "import App from './shell/App.svelte';\n"],
    ]);
    expect(featureUses(planted)).toEqual({ browse: ['downloads', 'quicklook'], quicklook: ['campaigns'], lib: [] });
  });
});
