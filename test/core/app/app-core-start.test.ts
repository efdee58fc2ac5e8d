// An app core that cannot start (its state folder is another MLSO Downloader's) says why in one sentence and
// leaves nothing running behind it: not the demo server it had started first. One that started names itself to
// the next run that finds the folder held.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src-shared/settings/default-settings';
import { createAppCore, type AppCore } from '../../../src-main/core/app/app-core';
import { startDemoServer } from '../../../src-main/emulator/demo-server';
import { StateFolderBusyError, lockStateFolder, type StateLock } from '../../../src-main/core/state/state-lock';
import type { RunningEmulator } from '../../../src-main/emulator';
import { temporaryFolder } from '../../helpers/fixtures';

const locks: StateLock[] = [];
const demos: RunningEmulator[] = [];
const cores: AppCore[] = [];

afterEach(async () => {
  for (const lock of locks.splice(0)) lock.release();
  await Promise.all(cores.splice(0).map((core) => core.close()));
  await Promise.all(demos.splice(0).map((demo) => demo.close()));
});

async function startCore(stateFolder: string, transport: 'electron' | 'web'): Promise<AppCore> {
  let saved = { ...defaultSettings(await temporaryFolder()), useDemoServer: true };
  const core = await createAppCore({
    version: '0.0.0-test',
    transport,
    stateFolder,
    settings: { read: () => saved, write: (next) => void (saved = next) },
    startDemoServer: async () => {
      const demo = await startDemoServer({ imageSize: 32 });
      demos.push(demo);
      return demo;
    },
    emit: () => undefined,
  });
  cores.push(core);
  return core;
}

describe('an app core on a state folder another MLSO Downloader is using', () => {
  it('refuses to start with one plain sentence and closes the demo server it started', async () => {
    const stateFolder = await temporaryFolder();
    locks.push(lockStateFolder(stateFolder));
    let saved = { ...defaultSettings(await temporaryFolder()), useDemoServer: true };
    const error = await createAppCore({
      version: '0.0.0-test',
      transport: 'web',
      stateFolder,
      settings: { read: () => saved, write: (next) => void (saved = next) },
      startDemoServer: async () => {
        const demo = await startDemoServer({ imageSize: 32 });
        demos.push(demo);
        return demo;
      },
      emit: () => undefined,
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(StateFolderBusyError);
    expect((error as Error).message).toBe(
      `Another MLSO Downloader (process ${process.pid}) is using the state folder ${stateFolder}. Wait for it to finish, or use another --state-dir.`,
    );
    expect(demos).toHaveLength(1);
    // Nothing answers at its address any more.
    const refused = await fetch(demos[0]!.url).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
  });

  for (const [transport, program] of [
    ['electron', 'the desktop app'],
    ['web', 'web mode'],
  ] as const) {
    it(`names itself, ${program}, to a run that finds the state folder held`, async () => {
      const stateFolder = await temporaryFolder();
      await startCore(stateFolder, transport);
      const error = (() => {
        try {
          locks.push(lockStateFolder(stateFolder));
          return undefined;
        } catch (refused) {
          return refused;
        }
      })();
      expect(error).toBeInstanceOf(StateFolderBusyError);
      expect((error as Error).message).toBe(
        `Another MLSO Downloader (${program}, process ${process.pid}) is using the state folder ${stateFolder}. Wait for it to finish, or use another --state-dir.`,
      );
    });
  }
});
