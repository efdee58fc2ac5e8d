// Builds engines over a fresh state folder and download folder, against the test's emulator.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import type { FileEntry } from '../../../src-shared/api/schemas';
import type { FileFilters } from '../../../src-shared/filters/filter-rules';
import { MlsoClient } from '../../../src-main/core/api/mlso-client';
import type { DownloadEngineOptions } from '../../../src-main/core/downloads/download-engine';
import { openDownloadEngine, type OpenedEngine } from '../../../src-main/core/app/open-engine';
import { DEMO_EMAIL, type RunningEmulator } from '../../../src-main/emulator';
import { listFolder, temporaryFolder } from '../../helpers/fixtures';

export interface Harness extends OpenedEngine {
  client: MlsoClient;
  folder: string;
  stateFolder: string;
}

export async function openHarness(emulator: RunningEmulator, options: Partial<DownloadEngineOptions> = {}, stateFolder?: string): Promise<Harness> {
  const state = stateFolder ?? (await temporaryFolder());
  const client = new MlsoClient({ baseUrl: emulator.url });
  const opened = await openDownloadEngine(state, {
    client,
    username: () => DEMO_EMAIL,
    backoff: { baseMs: 5, maxMs: 40 },
    ...options,
  });
  return { ...opened, client, folder: await temporaryFolder(), stateFolder: state };
}

/**
 * Engines for one test file against its emulator: `harness()` opens one, `closeEarly()` ends a run before the
 * next opens the same state folder, and whatever a test leaves open is closed after it.
 */
export function useHarnesses(emulator: () => RunningEmulator): {
  harness: (options?: Partial<DownloadEngineOptions>, stateFolder?: string) => Promise<Harness>;
  closeEarly: (harness: Harness) => Promise<void>;
} {
  const open: Harness[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
  });
  return {
    harness: async (options, stateFolder) => {
      const opened = await openHarness(emulator(), options, stateFolder);
      open.push(opened);
      return opened;
    },
    closeEarly: async (harness) => {
      open.splice(open.indexOf(harness), 1);
      await harness.close();
    },
  };
}

export async function listing(emulator: RunningEmulator, filters: FileFilters, instrument = 'kcor', product = 'pb'): Promise<FileEntry[]> {
  const client = new MlsoClient({ baseUrl: emulator.url });
  return (await client.files({ instrument, product, filters })).files;
}

/** Every listed file is in the folder, byte for byte, and nothing else is. */
export async function expectExactFolder(emulator: RunningEmulator, folder: string, files: readonly FileEntry[]): Promise<void> {
  expect(await listFolder(folder)).toEqual(files.map((f) => f.filename).sort());
  for (const file of files) {
    const written = await readFile(path.join(folder, file.filename));
    expect(written.equals(await emulator.fileBytes(file.instrument, file.filename)), file.filename).toBe(true);
  }
}
