import { describe, expect, it } from 'vitest';
import type { Settings } from '../../src-shared/settings/settings-types';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import type { SettingsPersistence } from '../../src-main/core/app/app-ports';
import { InvalidInputError } from '../../src-main/core/errors';
import { withRunOverrides } from '../../src-main/web/run-overrides';

function memoryStore(saved: Settings): SettingsPersistence & { saved: Settings; writes: number } {
  return {
    saved,
    writes: 0,
    read() {
      return this.saved;
    },
    write(next) {
      this.saved = next;
      this.writes += 1;
    },
  };
}

const savedSettings = (): Settings => ({ ...defaultSettings('/saved/folder'), baseUrl: 'http://saved.example' });

describe('command-line overrides over the saved settings', () => {
  it('reads the saved settings with the overrides on top, tidied as the Settings screen would', () => {
    const saved = memoryStore(savedSettings());
    const store = withRunOverrides(saved, { baseUrl: 'http://flag.example:8080/v1/', downloadFolder: '/flag/./folder' });
    expect(store.read()).toEqual({ ...savedSettings(), baseUrl: 'http://flag.example:8080', downloadFolder: '/flag/folder' });
    expect(saved.writes).toBe(0);
  });

  it('saves changes to other fields but keeps the saved value of every overridden field', () => {
    const saved = memoryStore(savedSettings());
    const store = withRunOverrides(saved, { baseUrl: 'http://flag.example', useDemoServer: true });
    store.write({ ...store.read(), concurrency: 9, lastEmail: 'someone@example.org' });
    expect(saved.saved).toEqual({ ...savedSettings(), concurrency: 9, lastEmail: 'someone@example.org' });
    expect(store.read()).toMatchObject({ baseUrl: 'http://flag.example', useDemoServer: true, concurrency: 9 });
  });

  it('saves an overridden field the user changes during the run, and from then on reads what was saved', () => {
    const saved = memoryStore(savedSettings());
    const store = withRunOverrides(saved, { baseUrl: 'http://flag.example', downloadFolder: '/flag/folder' });
    store.write({ ...store.read(), baseUrl: 'http://chosen.example' });
    expect(saved.saved).toEqual({ ...savedSettings(), baseUrl: 'http://chosen.example' });
    expect(store.read()).toMatchObject({ baseUrl: 'http://chosen.example', downloadFolder: '/flag/folder' });
    // Choosing the flag's value again is now a choice like any other.
    store.write({ ...store.read(), baseUrl: 'http://flag.example' });
    expect(saved.saved.baseUrl).toBe('http://flag.example');
  });

  it('refuses an override that is not a valid setting, before anything is saved', () => {
    const saved = memoryStore(savedSettings());
    expect(() => withRunOverrides(saved, { baseUrl: 'not a url' })).toThrow(InvalidInputError);
    expect(saved.writes).toBe(0);
  });

  it('is the saved store itself when nothing is overridden', () => {
    const saved = memoryStore(savedSettings());
    expect(withRunOverrides(saved, {})).toBe(saved);
  });
});
