// What a downloaded file costs the ledger: each write is a SQLite commit, and a bulk download of small files is
// mostly commits. A file takes the queue's claim, the record of its temporary name, of its hash before the
// rename and of its end; a resume file's record only when a resume file is written (a body that arrives whole within
// the bytes held in memory never is, and writing "nothing kept" over nothing kept is a commit for nothing).
import { describe, expect, it, vi } from 'vitest';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { useEmulator } from '../../helpers/fixtures';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness } = useHarnesses(emulator);
const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:05:00' }; // 20 files at 15 s

const WRITES = ['claimNext', 'recordTemporaryFile', 'setResumePoint', 'recordVerified', 'markDone', 'recordStop'] as const;

/** Calls of each writing method; for claimNext only the claims that took a job (a look at an empty queue writes nothing). */
function countWrites(ledger: DownloadLedger): Record<(typeof WRITES)[number], number> {
  const spies = new Map(WRITES.map((name) => [name as string, vi.spyOn(ledger, name)]));
  return new Proxy({} as Record<(typeof WRITES)[number], number>, {
    get: (_, name) => {
      const spy = spies.get(String(name));
      if (!spy) return 0;
      return name === 'claimNext' ? spy.mock.results.filter((result) => result.value !== undefined).length : spy.mock.calls.length;
    },
  });
}

describe('ledger writes per downloaded file', () => {
  it('a body that arrives whole within the bytes held in memory: four writes, none for a resume file', async () => {
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 4 });
    const writes = countWrites(h.ledger);
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    expect(writes.setResumePoint).toBe(0);
    for (const name of ['claimNext', 'recordTemporaryFile', 'recordVerified', 'markDone'] as const) expect(writes[name], name).toBe(files.length);
  });

  it('a body written to its resume file as it arrives: one more write, where it is kept', async () => {
    const files = await listing(emulator(), morning);
    const h = await harness({ concurrency: 4, heldBodyBytes: 0 });
    const writes = countWrites(h.ledger);
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
    expect(writes.setResumePoint).toBe(files.length);
    expect(writes.recordStop).toBe(0);
  });
});
