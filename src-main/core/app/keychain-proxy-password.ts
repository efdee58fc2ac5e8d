// The preferences with the proxy's password kept apart: the preferences file holds the proxy address without it,
// and a vault (the system keychain, in the desktop app) holds the password. The core sees the whole address as it
// was typed. A password an older version left in the file is moved to the vault at start.
import { splitProxyPassword, withProxyPassword } from '../network/proxy-password';
import type { SecretVault, SettingsPersistence } from './app-ports';

export interface KeychainProxyPassword extends SettingsPersistence {
  /** Resolves once every password change so far has reached the vault. */
  saved(): Promise<void>;
}

/** `store` with the proxy password in `vault`; reads the vault first, so the settings can be read at once. */
export async function keepProxyPasswordIn(vault: SecretVault, store: SettingsPersistence, warn: (message: string) => void): Promise<KeychainProxyPassword> {
  let password = await vault.load();
  let saving = Promise.resolve();
  const remember = (next: string | null) => {
    if (next === password) return;
    password = next;
    saving = saving.then(() => vault.save(next)).catch((error: unknown) => warn(`Could not keep the proxy password in the system keychain: ${String(error)}`));
  };
  const write: SettingsPersistence['write'] = (settings) => {
    const split = splitProxyPassword(settings.proxy);
    store.write({ ...settings, proxy: split.proxy });
    remember(split.password);
  };

  const stored = store.read();
  if (splitProxyPassword(stored.proxy).password !== null) write(stored);

  return {
    read() {
      const settings = store.read();
      return { ...settings, proxy: withProxyPassword(settings.proxy, password) };
    },
    write,
    saved: () => saving,
  };
}
