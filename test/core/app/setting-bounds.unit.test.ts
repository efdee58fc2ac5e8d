// One range per setting, whoever checks it: the app's settings rules, the contract's zod schema (its labels), the
// desktop app's electron-store schema and the engine's limits all take their bounds and defaults from the one table
// of setting definitions (the command line's options: test/cli/engine-options.test.ts).
import { describe, expect, it } from 'vitest';
import { applySettingsChange } from '../../../src-main/core/app/settings-rules';
import { CONCURRENCY_LIMITS, DEFAULT_MAX_ATTEMPTS } from '../../../src-main/core/downloads/download-limits';
import { SETTINGS_SCHEMA } from '../../../src-main/electron/settings-schema';
import { SETTING_ARGUMENTS } from '../../../src-shared/contract/contract-schemas';
import { defaultSettings } from '../../../src-shared/settings/default-settings';
import { SETTING_DEFINITIONS, WHOLE_NUMBER_SETTINGS } from '../../../src-shared/settings/setting-definitions';

const defaults = defaultSettings('/home/someone/MLSO');

describe('one table of setting definitions', () => {
  it.each(WHOLE_NUMBER_SETTINGS)('%s: the app rules, the zod labels and the Electron schema give the same bounds', (key) => {
    const { label, range } = SETTING_DEFINITIONS[key];
    for (const outside of [range.min - 1, range.max + 1]) {
      expect(() => applySettingsChange(defaults, { [key]: outside })).toThrow(`${label} must be a whole number from ${range.min} to ${range.max}`);
    }
    for (const inside of [range.min, range.max]) expect(applySettingsChange(defaults, { [key]: inside })[key]).toBe(inside);
    expect(SETTING_ARGUMENTS[key].label).toBe(label);
    expect(SETTINGS_SCHEMA[key]).toMatchObject({ type: 'integer', minimum: range.min, maximum: range.max });
    expect(defaults[key]).toBe(SETTING_DEFINITIONS[key].default);
  });

  it('every setting has its label in the zod schema from the table', () => {
    for (const [key, definition] of Object.entries(SETTING_DEFINITIONS)) {
      expect(SETTING_ARGUMENTS[key as keyof typeof SETTING_ARGUMENTS].label, key).toBe(definition.label);
    }
  });

  it('the engine limits are the settings table', () => {
    expect(CONCURRENCY_LIMITS).toEqual({ ...SETTING_DEFINITIONS.concurrency.range, default: SETTING_DEFINITIONS.concurrency.default });
    expect(DEFAULT_MAX_ATTEMPTS).toBe(SETTING_DEFINITIONS.retries.default + 1);
  });
});
