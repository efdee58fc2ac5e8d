// The same cases for both preferences stores (web mode's file, the desktop app's electron-store): a damaged
// file is set aside and replaced by the defaults; a file with values this version cannot use keeps its good
// values, sets the bad ones back to their defaults, and is kept as it was beside the new one; each says so once.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Settings } from '../../src-shared/settings/settings-types';
import type { SettingsPersistence } from '../../src-main/core/app/app-ports';

export interface BadFileSubject {
  /** A new empty folder for one case. */
  folder(): Promise<string>;
  /** The preferences file's name in that folder. */
  fileName: string;
  /** Opens the store on the folder; notices go to `warn`. */
  open(folder: string, warn: (message: string) => void): SettingsPersistence;
  defaults: Settings;
}

async function setAsideFiles(folder: string, fileName: string): Promise<string[]> {
  const stem = fileName.replace(/\.json$/, '');
  return (await readdir(folder)).filter((name) => name.startsWith(`${stem}.invalid-`));
}

export function describeBadSettingsFile(store: string, subject: BadFileSubject): void {
  describe(`${store}: a bad preferences file (the rule both front ends share)`, () => {
    it.each([
      ['damaged JSON', '{"concurrency": 8,'],
      ['an empty file', ''],
      ['not an object', '[1, 2, 3]'],
    ])('sets %s aside, says so and starts from the defaults, which it saves', async (_what, text) => {
      const folder = await subject.folder();
      await writeFile(path.join(folder, subject.fileName), text);
      const notices: string[] = [];
      expect(subject.open(folder, (message) => notices.push(message)).read()).toEqual(subject.defaults);
      const aside = await setAsideFiles(folder, subject.fileName);
      expect(aside).toHaveLength(1);
      expect(await readFile(path.join(folder, aside[0]!), 'utf8')).toBe(text);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(/could not be read.*set aside as .*invalid-.*defaults/);
      // Opened again: the defaults, with nothing more set aside and nothing more to say.
      expect(subject.open(folder, (message) => notices.push(message)).read()).toEqual(subject.defaults);
      expect(await setAsideFiles(folder, subject.fileName)).toHaveLength(1);
      expect(notices).toHaveLength(1);
    });

    it.each([
      ['out of range', { concurrency: 99 }, 'Concurrency must be a whole number from 1 to 16'],
      ['of the wrong type', { concurrency: 'lots' }, 'Concurrency must be a whole number from 1 to 16'],
      ['not a choice', { existingFiles: 'delete' }, 'When a file is already there, choose one of'],
    ])('keeps the good values of a file with one %s, sets that one back to its default and keeps the file as it was', async (_what, bad, message) => {
      const folder = await subject.folder();
      const saved = { ...bad, retries: 7, lastEmail: 'kept@example.com' };
      await writeFile(path.join(folder, subject.fileName), JSON.stringify(saved));
      const notices: string[] = [];
      const expected = { ...subject.defaults, retries: 7, lastEmail: 'kept@example.com' };
      expect(subject.open(folder, (text) => notices.push(text)).read()).toEqual(expected);
      const aside = await setAsideFiles(folder, subject.fileName);
      expect(aside).toHaveLength(1);
      expect(JSON.parse(await readFile(path.join(folder, aside[0]!), 'utf8'))).toEqual(saved);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(message);
      expect(notices[0]).toMatch(/set back to (its|their) defaults?.*kept as .*invalid-/);
      expect(subject.open(folder, (text) => notices.push(text)).read()).toEqual(expected);
      expect(notices).toHaveLength(1);
    });

    it('says nothing about a good file, nor about keys of another version', async () => {
      const folder = await subject.folder();
      await writeFile(path.join(folder, subject.fileName), JSON.stringify({ concurrency: 5, someFutureSetting: true }));
      const notices: string[] = [];
      expect(subject.open(folder, (text) => notices.push(text)).read()).toEqual({ ...subject.defaults, concurrency: 5 });
      expect(notices).toEqual([]);
      expect(await setAsideFiles(folder, subject.fileName)).toEqual([]);
    });
  });
}
