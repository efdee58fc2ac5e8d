// Changing the settings: validated first, then each domain takes its part (the server and its client, the
// session, which belongs to one server, and the download engine).
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { DownloadEngine } from '../downloads/download-engine';
import type { PlatformShell } from './app-ports';
import { applyEngineSettings } from './download-handlers';
import type { ServerConnection } from './server-connection';
import type { AppSession } from './session-handlers';
import type { SettingsKeeper } from './settings-keeper';
import { requireShell } from './shell-handlers';

export interface SettingsDeps {
  settings: SettingsKeeper;
  connection: ServerConnection;
  session: AppSession;
  engine: DownloadEngine;
  shell: PlatformShell | undefined;
}

export function settingsHandlers(deps: SettingsDeps): Pick<ContractHandlers, 'settings:get' | 'settings:update' | 'settings:choose-folder'> {
  const { settings } = deps;

  async function change(requested: Partial<Settings>): Promise<Settings> {
    const next = settings.preview(requested);
    const { serverMoved } = await deps.connection.switchTo(next, () => settings.save(next));
    // A session belongs to one server: pointing elsewhere signs out.
    if (serverMoved) await deps.session.signOut();
    applyEngineSettings(deps.engine, settings.value);
    if ('rememberSession' in requested) await deps.session.remember();
    return settings.value;
  }

  return {
    'settings:get': () => settings.value,
    'settings:update': (requested) => change(requested),
    'settings:choose-folder': async () => {
      const current = settings.value.downloadFolder;
      const chosen = await requireShell(deps.shell, 'Choosing a folder', current).chooseFolder(current);
      if (chosen) await change({ downloadFolder: chosen });
      return chosen;
    },
  };
}
