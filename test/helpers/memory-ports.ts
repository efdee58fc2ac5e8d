// The app core's storage ports kept in memory, for tests: the preferences as last saved, and a secret vault.
import type { Settings } from '../../src-shared/settings/settings-types';
import type { SecretVault, SettingsPersistence } from '../../src-main/core/app/app-ports';

/** Preferences that read back what was last written (`saved`). */
export function memorySettings(saved: Settings): SettingsPersistence & { saved: Settings } {
  return {
    saved,
    read() {
      return this.saved;
    },
    write(next) {
      this.saved = next;
    },
  };
}

/** A vault that keeps its secret in `value`. */
export function memoryVault(value: string | null = null): SecretVault & { value: string | null } {
  return {
    value,
    async load() {
      return this.value;
    },
    async save(secret) {
      this.value = secret;
    },
  };
}
