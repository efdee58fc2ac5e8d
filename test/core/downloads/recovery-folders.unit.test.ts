// A start looks for leftovers in every folder the ledger knows; a campaign's layout can spread a million jobs over
// hundreds of folders, and asking the ledger for the resume files of each folder scans every job each time (a minute
// at a million jobs in 181 day folders). The ledger is asked only about a folder that holds a resume file.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { recoverInterruptedJobs } from '../../../src-main/core/downloads/crash-recovery';
import { resumeFileNameFor } from '../../../src-main/core/downloads/resume-file';
import { temporaryFolder } from '../../helpers/fixtures';
import { openLedgerFile } from '../state/state-file';
import { newJob } from './ledger-jobs';

describe('recovery at a start, over many folders', () => {
  it('asks the ledger for recorded resume files only in a folder that holds one, and still removes an unrecorded one', async () => {
    const root = await temporaryFolder();
    const ledger = openLedgerFile(':memory:');
    try {
      const folders = ['2025-03-22', '2025-03-23', '2025-03-24'].map((day) => path.join(root, day));
      for (const folder of folders) {
        await mkdir(folder);
        await writeFile(path.join(folder, `${path.basename(folder)}.fts`), 'done');
        ledger.insertMany([{ ...newJob(`${path.basename(folder)}.fts`, { folder }), state: 'done' }]);
      }
      // An old resume file no job records, in the last folder only.
      const litter = path.join(folders[2]!, resumeFileNameFor('gone.fts'));
      await writeFile(litter, 'part');
      const old = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000);
      const { utimes } = await import('node:fs/promises');
      await utimes(litter, old, old);

      const asked = vi.spyOn(ledger, 'resumeNamesIn');
      await recoverInterruptedJobs(ledger);
      expect(asked.mock.calls.map(([folder]) => folder)).toEqual([folders[2]]);
      expect(await readdir(folders[2]!)).toEqual(['2025-03-24.fts']);
    } finally {
      ledger.close();
    }
  });
});
