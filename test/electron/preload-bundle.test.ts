// A sandboxed preload can require nothing but 'electron'. Bundled the way scripts/build-main.mjs
// bundles it and run in a bare context whose require knows only 'electron', it must still expose the bridge.
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it, vi } from 'vitest';
import { BRIDGE_GLOBAL, INVOKE_CHANNELS } from '../../src-shared/contract/contract';

describe('the preload bundle', () => {
  it('needs only electron at run time and exposes the contract bridge', async () => {
    const result = await build({
      entryPoints: [path.resolve('src-main/electron/preload.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      external: ['electron'],
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    const exposed = new Map<string, { invoke(channel: string, args: unknown): Promise<unknown> }>();
    const invoke = vi.fn(async () => ({ ok: true, value: null }));
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
  });
});
