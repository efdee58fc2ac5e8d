// Command-line options such as --base-url, --output-dir and --demo hold for one run: saving them would
// make every later start open on that server or folder, long after the user stopped asking for it.
import { isDeepStrictEqual } from 'node:util';
import type { Settings } from '../../src-shared/settings/settings-types';
import type { SettingsPersistence } from '../core/app/app-ports';
import { applySettingsChange } from '../core/app/settings-rules';

/**
 * The saved settings with `overrides` on top. A write keeps the saved value of an overridden field, unless
 * the user changed that field during the run (it then differs from the override): that choice is saved
 * and the field is no longer overridden. Throws InvalidInputError for an invalid override.
 */
export function withRunOverrides(saved: SettingsPersistence, overrides: Partial<Settings>): SettingsPersistence {
  const fields = (Object.keys(overrides) as (keyof Settings)[]).filter((field) => overrides[field] !== undefined);
  if (fields.length === 0) return saved;
  // Tidied as the core tidies settings, so an unchanged override compares equal to what the core writes back.
  const tidied = applySettingsChange(saved.read(), overrides);
  const active: Partial<Settings> = Object.fromEntries(fields.map((field) => [field, tidied[field]]));

  return {
    read: () => ({ ...saved.read(), ...active }),
    write(next) {
      const current = saved.read();
      const kept: Partial<Settings> = {};
      for (const field of Object.keys(active) as (keyof Settings)[]) {
        if (isDeepStrictEqual(next[field], active[field])) Object.assign(kept, { [field]: current[field] });
        else delete active[field];
      }
      saved.write({ ...next, ...kept });
    },
  };
}
