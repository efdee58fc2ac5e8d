// Where the ledger lives unless the user says otherwise: the per-user data folder named after the app alone.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStateFolder } from '../../../src-main/core/state/state-folder';

describe('the default state folder', () => {
  it("is an absolute path ending in the app's name, without a runtime suffix such as -nodejs", () => {
    const folder = defaultStateFolder();
    expect(path.isAbsolute(folder)).toBe(true);
    expect(path.basename(folder)).toBe('mlso-downloader');
  });

  it('follows XDG_DATA_HOME on Linux', () => {
    if (process.platform !== 'linux') return;
    const before = process.env.XDG_DATA_HOME;
    process.env.XDG_DATA_HOME = '/srv/data';
    try {
      expect(defaultStateFolder()).toBe('/srv/data/mlso-downloader');
    } finally {
      if (before === undefined) delete process.env.XDG_DATA_HOME;
      else process.env.XDG_DATA_HOME = before;
    }
  });
});
