// The fault suite's and the soak's own checkers must be able to say no: each broken promise is caught.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DownloadLedger } from '../../src-main/core/downloads/download-ledger';
import { openLedgerFile } from '../core/state/state-file';
import { temporaryFolder } from '../helpers/fixtures';
import { checkFolderInvariants } from '../../scripts/faults/folder-invariants';
import { plainReasonProblems } from './plain-reason';
import { judgeTrend, type ProcessSample } from '../../scripts/faults/process-sampler';
import { sha256Hex } from '../helpers/sha256';

const ledgers: DownloadLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

const served = (name: string): Buffer => Buffer.from(`SIMPLE  = T ${name}`.padEnd(2880, ' '));

/** A folder (with a sub-folder, as a campaign layout makes) and its ledger, each file done and intact. */
async function intactFolder(names: readonly string[]): Promise<{ folder: string; ledger: DownloadLedger; target: (name: string) => string }> {
  const folder = await temporaryFolder();
  const ledger = openLedgerFile(path.join(await temporaryFolder(), 'ledger.sqlite'));
  ledgers.push(ledger);
  const target = (name: string): string => path.join(folder, 'kcor', name);
  await mkdir(path.join(folder, 'kcor'));
  for (const name of names) {
    const job = ledger.insert({
      url: `http://x/${name}`,
      instrument: 'kcor',
      product: 'pb',
      dateObs: null,
      filename: name,
      folder: path.join(folder, 'kcor'),
      targetPath: target(name),
      expectedSize: 0,
      batchId: null,
    });
    await writeFile(target(name), served(name));
    ledger.markDone(job.id, { sha256: sha256Hex(served(name)), bytesReceived: 100, bytesWritten: served(name).length });
  }
  return { folder, ledger, target };
}

const check = (folder: string, ledger: DownloadLedger) => checkFolderInvariants({ folder, ledger, expectedBytes: async (_instrument, name) => served(name) });

describe('folder invariants', () => {
  it('hold for a folder whose every file is done and intact', async () => {
    const { folder, ledger } = await intactFolder(['a.fts', 'b.fts']);
    expect(await check(folder, ledger)).toEqual({ finalFiles: ['kcor/a.fts', 'kcor/b.fts'], temporaryFiles: [], doneJobs: 2, violations: [] });
  });

  it('catch a damaged file, a file without a done job, a missing file and a leftover temporary file', async () => {
    const { folder, ledger, target } = await intactFolder(['a.fts', 'b.fts', 'c.fts']);
    await writeFile(target('a.fts'), served('a.fts').subarray(0, 1000)); // partial under the final name
    await writeFile(target('stray.fts'), served('stray.fts')); // nobody downloaded it
    const { unlink } = await import('node:fs/promises');
    await unlink(target('b.fts'));
    await writeFile(path.join(folder, 'kcor', '.c.fts.0123abcd.part'), 'half');
    const { violations } = await check(folder, ledger);
    expect(violations).toEqual(
      expect.arrayContaining([
        'temporary file kcor/.c.fts.0123abcd.part was left behind',
        'kcor/a.fts differs from what the server serves (1000 bytes, expected 2880)',
        'kcor/a.fts holds 1000 bytes, the ledger recorded 2880',
        'kcor/a.fts does not have the SHA-256 the ledger recorded',
        'kcor/stray.fts is under its final name but its job is missing from the ledger',
        'kcor/b.fts is done in the ledger but not in the folder',
      ]),
    );
    expect(violations).toHaveLength(6);
  });

  it('catch a final-named file whose job did not finish, and a same-size file with other bytes', async () => {
    const { folder, ledger, target } = await intactFolder(['a.fts']);
    const job = ledger.insert({
      url: 'http://x/q.fts',
      instrument: 'kcor',
      product: 'pb',
      dateObs: null,
      filename: 'q.fts',
      folder: path.join(folder, 'kcor'),
      targetPath: target('q.fts'),
      expectedSize: 0,
      batchId: null,
    });
    ledger.markFailed(job.id, 'download', 'The file arrived incomplete.');
    await writeFile(target('q.fts'), served('q.fts'));
    const swapped = Buffer.from(served('a.fts'));
    swapped[100] = 0x58;
    await writeFile(target('a.fts'), swapped);
    expect((await check(folder, ledger)).violations).toEqual([
      'kcor/a.fts differs from what the server serves (2880 bytes, expected 2880)',
      'kcor/q.fts is under its final name but its job is failed',
      'kcor/a.fts does not have the SHA-256 the ledger recorded',
    ]);
  });
});

describe('plain reasons', () => {
  it('pass the messages users see', () => {
    for (const reason of [
      'The server answered 503: service temporarily unavailable, try again later (gave up after 3 attempts).',
      '20250324_180000_kcor_l2_pb.fts arrived incomplete (the compressed stream ended early; gave up after 3 attempts).',
      'Cannot reach http://127.0.0.1:5000 (ECONNREFUSED; gave up after 3 attempts). Check the address and your network connection, then try again.',
    ]) {
      expect(plainReasonProblems(reason)).toEqual([]);
    }
  });

  it('catch stacks, exception names, internal catch-alls and leaked values', () => {
    expect(plainReasonProblems('TypeError: value.trim is not a function\n    at check (/app/x.js:1:2)')).toHaveLength(3);
    expect(plainReasonProblems('Unexpected problem: boom')).toEqual(['"Unexpected problem: boom" is the catch-all for internal errors']);
    expect(plainReasonProblems('The server answered undefined.')).toEqual(['"The server answered undefined." shows a JavaScript value']);
    expect(plainReasonProblems('Failed: [object Object]')).toEqual(['"Failed: [object Object]" shows a JavaScript value']);
    expect(plainReasonProblems('')).toEqual(['is empty']);
    expect(plainReasonProblems(null)).toEqual(['is empty']);
  });
});

describe('trend verdict', () => {
  const series = (rss: (i: number) => number, fds: (i: number) => number, count = 30): ProcessSample[] =>
    Array.from({ length: count }, (_, i) => ({ atMs: i * 250, rssBytes: rss(i) * 1024 * 1024, openFds: fds(i) }));

  it('calls a run flat when the end stays near the middle, whatever the start did', () => {
    const verdict = judgeTrend(
      series(
        (i) => (i < 5 ? 20 * i : 100 + (i % 4)),
        (i) => (i < 3 ? 4 : 30 + (i % 3)),
      ),
    );
    expect(verdict).toMatchObject({ samples: 30, rssFlat: true, fdsFlat: true, openFds: { min: 4, max: 32 } });
    expect(verdict!.rssBytes.max).toBe(103 * 1024 * 1024);
  });

  it('catches memory that keeps growing and descriptors that pile up', () => {
    expect(
      judgeTrend(
        series(
          (i) => 100 + 3 * i,
          () => 30,
        ),
      ),
    ).toMatchObject({ rssFlat: false, fdsFlat: true });
    expect(
      judgeTrend(
        series(
          () => 100,
          (i) => 30 + i,
        ),
      ),
    ).toMatchObject({ rssFlat: true, fdsFlat: false });
  });

  it('gives no verdict on too few samples', () => {
    expect(
      judgeTrend(
        series(
          () => 100,
          () => 30,
          5,
        ),
      ),
    ).toBeUndefined();
  });
});
