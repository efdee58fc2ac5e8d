// The Settings type is derived from the table of setting definitions, so a setting cannot be added to one alone.
// Checked by the type checker (`tsc --noEmit -p tsconfig.json` reads test/): each @ts-expect-error must meet a real
// error, so a check that stops holding fails the type check ("Unused '@ts-expect-error' directive").
import { describe, expectTypeOf, it } from 'vitest';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { SETTING_DEFINITIONS, type KindedDefinition, type SettingName, type Settings, type SettingsOf } from '../../src-shared/settings/setting-definitions';
import type { WindowBounds } from '../../src-shared/settings/settings-types';
import type { ExistingFilePolicy } from '../../src-shared/downloads/existing-file-policy';

describe('the Settings type', () => {
  it('has one field per definition, each the value of its kind', () => {
    expectTypeOf<keyof Settings>().toEqualTypeOf<SettingName>();
    expectTypeOf<Settings['baseUrl']>().toEqualTypeOf<string>();
    expectTypeOf<Settings['concurrency']>().toEqualTypeOf<number>();
    expectTypeOf<Settings['existingFiles']>().toEqualTypeOf<ExistingFilePolicy>();
    expectTypeOf<Settings['rememberSession']>().toEqualTypeOf<boolean>();
    expectTypeOf<Settings['windowBounds']>().toEqualTypeOf<WindowBounds | null>();
  });

  it('takes a setting added to the table, and refuses one added to a settings object alone', () => {
    type Planted = SettingsOf<typeof SETTING_DEFINITIONS & { pace: { label: 'The pace'; kind: 'whole'; range: { min: 1; max: 9 }; default: 3 } }>;
    expectTypeOf<Planted['pace']>().toEqualTypeOf<number>();
    // @ts-expect-error: a settings object without the setting the table gained
    const missing: Planted = defaultSettings('');
    // @ts-expect-error: a field the table does not define
    const extra: Settings = { ...defaultSettings(''), pace: 3 };
    expectTypeOf(missing).not.toBeAny();
    expectTypeOf(extra).not.toBeAny();
  });

  it('refuses a definition whose default is not a value of its kind', () => {
    const fits = { label: 'The pace', kind: 'whole', range: { min: 1, max: 9 }, default: 3 } satisfies KindedDefinition;
    // @ts-expect-error: a whole number setting's default is a number
    const wrong = { label: 'The pace', kind: 'whole', range: { min: 1, max: 9 }, default: '3' } satisfies KindedDefinition;
    expectTypeOf(fits.default).toEqualTypeOf<number>();
    expectTypeOf(wrong).not.toBeAny();
  });
});
