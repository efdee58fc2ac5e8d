// The unit lane's rule (vitest.config.ts: its folders, and elsewhere files named *.unit.test.ts) stays true: every
// folder pattern finds tests, the name is used only where the Node lanes look, and no file in the lane starts a
// server, spawns a process or reads the build. Only what each file says itself is read: a helper it
// imports that starts a server is not seen, so helpers that do are named here (engine and app-core harnesses).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNIT_TESTS } from '../../vitest.config';

const INTEGRATION_SIGNS: [RegExp, string][] = [
  [/\b(useEmulator|createEmulator|startDemoServer)\(/, 'starts the emulator'],
  [/\b(oddServer|otherServer|createServer|startWebServer|startWebApp|startMockServer)\(/, 'starts a server'],
  [/\/(engine|app-core)-harness['"]/, 'opens an engine or app core against the emulator'],
  [/\/helpers\/built-cli['"]/, 'runs the built mlso-dl'],
  [/['"]node:(child_process|worker_threads)['"]/, 'spawns a process or thread'],
  [/resolve\(['"]dist\b/, 'reads the build'],
];

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The glob patterns the list uses: `**` for any folders, `*` within a name. */
function globPattern(glob: string): RegExp {
  const withinName = (part: string) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${glob.split('**/').map(withinName).join('(?:.*/)?')}$`);
}

const allTests = testFiles('test');
const unitTests = allTests.filter((file) => UNIT_TESTS.some((glob) => globPattern(glob).test(file)));

describe('the unit lane', () => {
  it('names only folders that hold tests', () => {
    const unmatched = UNIT_TESTS.filter((glob) => !allTests.some((file) => globPattern(glob).test(file)));
    expect(unmatched, 'moved or deleted: update UNIT_FOLDERS in vitest.config.ts').toEqual([]);
    expect(unitTests.length).toBeGreaterThan(50);
  });

  it('finds no unit-named test in the renderer’s or the browser’s lane, which would run it twice', () => {
    const twice = unitTests.filter((file) => file.startsWith('test/renderer/') || file.startsWith('test/e2e/'));
    expect(twice).toEqual([]);
  });

  it('holds no test that starts a server, spawns a process or reads the build', () => {
    const misplaced = unitTests.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return INTEGRATION_SIGNS.filter(([sign]) => sign.test(text)).map(([, what]) => `${file} ${what}`);
    });
    expect(misplaced, 'move these to the integration lane (drop `.unit` from the name, or take the file out of a unit folder)').toEqual([]);
  });
});
