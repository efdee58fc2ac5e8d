// The settings rules: only known settings are accepted, and the listing limits are checked like the others.
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../../src-shared/settings/settings-types';
import { defaultSettings } from '../../../src-shared/settings/default-settings';
import { applySettingsChange, knownSettings } from '../../../src-main/core/app/settings-rules';
import { InvalidInputError } from '../../../src-main/core/errors';

const current = (): Settings => defaultSettings('/home/ada/MLSO');

function refusal(change: unknown): InvalidInputError {
  try {
    applySettingsChange(current(), change as Partial<Settings>);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return error as InvalidInputError;
  }
  throw new Error(`accepted ${JSON.stringify(change)}`);
}

describe('unknown settings', () => {
  it('are refused, naming the key, __proto__ included (JSON.parse makes it an own key)', () => {
    const error = refusal(JSON.parse('{"__proto__": {"x": 1}, "nope": 2}'));
    expect(error.kind).toBe('invalid-input');
    expect(error.message).toBe('"__proto__", "nope" are not settings; nothing was saved.');
    expect(refusal({ concurrency: 2, colour: 'red' }).message).toBe('"colour" is not a setting; nothing was saved.');
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('are refused when the change is not an object at all', () => {
    for (const change of ['concurrency', [1, 2], 7]) expect(refusal(change).kind).toBe('invalid-input');
  });

  it('never reach the next settings, even from the current ones', () => {
    const polluted = { ...current(), stray: true } as Settings;
    const next = applySettingsChange(polluted, { concurrency: 2 });
    expect(Object.keys(next).sort()).toEqual(Object.keys(current()).sort());
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(next.concurrency).toBe(2);
  });

  it('are left out of a saved file by knownSettings, which keeps the rest', () => {
    const saved = JSON.parse('{"concurrency": 3, "__proto__": {"x": 1}, "retired": true}') as unknown;
    const known = knownSettings(saved);
    expect(known).toEqual({ concurrency: 3 });
    expect(Object.getPrototypeOf(known)).toBe(Object.prototype);
    expect(knownSettings('not an object')).toEqual({});
    expect(applySettingsChange(current(), known).concurrency).toBe(3);
  });
});

describe('the listing limits', () => {
  it('default to 10 minutes and 256 MB', () => {
    expect(current()).toMatchObject({ listingTimeoutMinutes: 10, maxListingMegabytes: 256 });
  });

  it('accept whole numbers in range', () => {
    for (const change of [
      { listingTimeoutMinutes: 1, maxListingMegabytes: 1 },
      { listingTimeoutMinutes: 1440, maxListingMegabytes: 4096 },
    ]) {
      expect(applySettingsChange(current(), change)).toMatchObject(change);
    }
  });

  it('refuse values out of range or of the wrong type, saying what is allowed', () => {
    for (const wrong of [0, 1441, 2.5, '10', null, Number.NaN]) {
      expect(refusal({ listingTimeoutMinutes: wrong }).message).toBe('The listing time limit (minutes) must be a whole number from 1 to 1440.');
    }
    for (const wrong of [0, 4097, 0.5, '256', undefined]) {
      expect(refusal({ maxListingMegabytes: wrong }).message).toBe('The listing size limit (MB) must be a whole number from 1 to 4096.');
    }
  });
});
