// A sandboxed preload can require nothing but 'electron'. The preload the project's build (scripts/build-main.mjs,
// run by `npm test` before the tests) wrote to dist/electron/preload.cjs, run in a bare context whose require knows
// only 'electron', must still expose the bridge. Needs the built main (node scripts/build-main.mjs).
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_GLOBAL, INVOKE_CHANNELS } from '../../src-shared/contract/contract';
import { appLocations } from '../../src-main/electron/app-locations';

// Where the built main looks for it (the same function the app uses), under the project's dist/electron.
const builtPreload = appLocations(path.resolve('dist/electron')).preload;
/** The sources of the preload and what it is made of: a build older than any of them is not what is tested. */
const SOURCES = ['src-main/electron/preload.ts', 'src-main/electron/preload-bridge.ts', 'src-shared/contract/contract.ts'];

describe('the preload bundle', () => {
  it('is built from the current sources', async () => {
    const built = (await stat(builtPreload).catch(() => undefined))?.mtimeMs;
    expect(built, `${builtPreload} is missing: run node scripts/build-main.mjs`).toBeDefined();
    for (const source of SOURCES)
      expect((await stat(source)).mtimeMs, `${source} is newer than the build: run node scripts/build-main.mjs`).toBeLessThanOrEqual(built ?? 0);
  });

  it('needs only electron at run time and exposes the contract bridge', async () => {
    const code = await readFile(builtPreload, 'utf8');
    const exposed = new Map<string, { invoke(channel: string, args: unknown): Promise<unknown> }>();
    const invoke = vi.fn(async (_channel: string, _args: unknown) => ({ ok: true, value: null }));
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: never) => exposed.set(key, api) },
      ipcRenderer: { invoke, on: vi.fn(), removeListener: vi.fn() },
    };
    const required: string[] = [];
    const sandboxedRequire = (id: string) => {
      required.push(id);
      if (id !== 'electron') throw new Error(`module not found: ${id}`);
      return electron;
    };
    const module = { exports: {} };
    runInNewContext(code, { require: sandboxedRequire, module, exports: module.exports, Promise, Object, String, Error });
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual([BRIDGE_GLOBAL]);
    const bridge = exposed.get(BRIDGE_GLOBAL);
    for (const channel of INVOKE_CHANNELS) await bridge?.invoke(channel, { channel });
    expect(invoke).toHaveBeenCalledTimes(INVOKE_CHANNELS.length);
    expect(invoke.mock.calls.map(([channel]) => channel)).toEqual(INVOKE_CHANNELS);
  });
});
