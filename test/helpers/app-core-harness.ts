// An app core over the test emulator, with in-memory settings, a recording shell and recorded events.
import type { EventChannel } from '../../src-shared/contract/contract';
import type { Settings } from '../../src-shared/settings/settings-types';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { createAppCore, type AppCore } from '../../src-main/core/app/app-core';
import type { PlatformShell, SecretVault, SettingsPersistence } from '../../src-main/core/app/app-ports';
import type { SystemProxyResolver } from '../../src-main/core/network/system-proxy';
import { startDemoServer } from '../../src-main/emulator/demo-server';
import type { RunningEmulator } from '../../src-main/emulator';
import { temporaryFolder } from './fixtures';
import { memorySettings, memoryVault } from './memory-ports';

export interface CoreHarness {
  core: AppCore;
  settings: SettingsPersistence & { saved: Settings };
  events: { event: EventChannel; payload: unknown }[];
  shellCalls: string[];
  vault: SecretVault & { value: string | null };
  demoStarts: RunningEmulator[];
  downloadFolder: string;
}

export async function coreHarness(
  emulator: RunningEmulator,
  options: { shell?: boolean; settings?: Partial<Settings>; vaultValue?: string | null; stateFolder?: string; systemProxy?: SystemProxyResolver } = {},
): Promise<CoreHarness> {
  const downloadFolder = await temporaryFolder();
  const settings = memorySettings({ ...defaultSettings(downloadFolder), baseUrl: emulator.url, ...options.settings });
  const events: CoreHarness['events'] = [];
  const shellCalls: string[] = [];
  const vault = memoryVault(options.vaultValue ?? null);
  const shell: PlatformShell = {
    chooseFolder: async () => {
      shellCalls.push('chooseFolder');
      return downloadFolder;
    },
    openPath: async (folder) => void shellCalls.push(`openPath ${folder}`),
    showItemInFolder: (file) => void shellCalls.push(`showItemInFolder ${file}`),
    openExternal: async (url) => void shellCalls.push(`openExternal ${url}`),
  };
  const demoStarts: RunningEmulator[] = [];
  const core = await createAppCore({
    version: '0.0.0-test',
    transport: 'web',
    stateFolder: options.stateFolder ?? (await temporaryFolder()),
    settings,
    sessionVault: vault,
    ...(options.shell ? { shell } : {}),
    startDemoServer: async () => {
      const demo = await startDemoServer({ imageSize: 32 });
      demoStarts.push(demo);
      return demo;
    },
    emit: (event, payload) => events.push({ event, payload }),
    ...(options.systemProxy ? { systemProxy: options.systemProxy } : {}),
  });
  return { core, settings, events, shellCalls, vault, demoStarts, downloadFolder };
}
