// Web mode put together: the loopback server, the app core behind it, settings in the state folder.
import path from 'node:path';
import { existsSync } from 'node:fs';
import type { Settings } from '../../src-shared/settings/settings-types';
import { createAppCore, type AppCore } from '../core/app/app-core';
import { defaultDownloadFolder } from '../core/app/default-download-folder';
import { startDemoServer } from '../emulator/demo-server';
import { InvalidInputError } from '../core/errors';
import { fileSettingsStore } from './file-settings-store';
import { withRunOverrides } from './run-overrides';
import { startWebServer, type RunningWebServer } from './web-server';

export interface WebAppOptions {
  port: number;
  stateFolder: string;
  rendererFolder: string;
  version: string;
  /** Overrides the saved download folder for this run (the command line's --output-dir); not saved. */
  downloadFolder?: string;
  /** Overrides the saved server for this run (the command line's --base-url / --api-version / --demo, when given); not saved. */
  server?: Partial<Pick<Settings, 'baseUrl' | 'apiVersion' | 'clientName' | 'useDemoServer'>>;
}

export interface RunningWebApp {
  server: RunningWebServer;
  core: AppCore;
  close(): Promise<void>;
}

export async function startWebApp(options: WebAppOptions): Promise<RunningWebApp> {
  if (!existsSync(path.join(options.rendererFolder, 'index.html'))) {
    throw new InvalidInputError(`The app's web files are missing from ${options.rendererFolder}. Run "npm run build" in the project folder first.`);
  }
  const server = await startWebServer({ rendererFolder: options.rendererFolder, port: options.port });
  try {
    // The default folder is not --output-dir: that option holds for this run only, like the others.
    const saved = fileSettingsStore(options.stateFolder, defaultDownloadFolder());
    const overrides: Partial<Settings> = { ...options.server, ...(options.downloadFolder ? { downloadFolder: path.resolve(options.downloadFolder) } : {}) };
    const store = withRunOverrides(saved, overrides);
    const core = await createAppCore({
      version: options.version,
      transport: 'web',
      stateFolder: options.stateFolder,
      settings: store,
      startDemoServer,
      emit: (event, payload) => server.broadcast(event, payload),
    });
    server.setHandlers(core.handlers);
    return {
      server,
      core,
      close: async () => {
        await server.close();
        await core.close();
      },
    };
  } catch (error) {
    await server.close();
    throw error;
  }
}
