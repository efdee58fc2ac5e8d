// A command-line run is a batch: a pause it hits (a full disk) belongs to that run only. The desktop
// app's queue pause, by contrast, is remembered across restarts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEDGER_FILE } from '../../../src-main/core/state/open-state-folder';
import { openStateFile } from '../state/state-file';
import { listFolder, temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { diskThatFills } from '../../helpers/full-disk';
import { expectExactFolder, listing, useHarnesses } from './engine-harness';

const emulator = useEmulator({ imageSize: 64 });
const { harness, closeEarly } = useHarnesses(emulator);

const morning = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };
const evening = { 'start-date': '2025-03-24T21:00:00', 'end-date': '2025-03-24T21:01:00' };

describe('a batch (command-line run) that hit a full disk', () => {
  it('does not block the next run on the same state folder, for the same listing or another one', async () => {
    const files = await listing(emulator(), morning);
    const others = await listing(emulator(), evening);
    expect(files.length).toBeGreaterThan(2);
    expect(others.length).toBeGreaterThan(1);
    const stateFolder = await temporaryFolder();

    const full = await harness({ batchId: 'run-1', concurrency: 2, openSink: diskThatFills(() => true) }, stateFolder);
    await full.engine.enqueue(files, full.folder);
    expect(await full.engine.whenSettled()).toBe('paused');
    expect(full.engine.overall().pauseReason).toMatchObject({ kind: 'disk-full' });
    await closeEarly(full);

    // Space is back: a new run downloads the files the full disk stopped.
    emulator().resetStats();
    const again = await harness({ batchId: 'run-2', concurrency: 2 }, stateFolder);
    expect(again.engine.overall().queuePaused).toBe(false);
    await again.engine.enqueue(files, full.folder);
    expect(await again.engine.whenSettled()).toBe('finished');
    expect(emulator().stats().downloadsStarted).toBe(files.length);
    await expectExactFolder(emulator(), full.folder, files);
    await closeEarly(again);

    // And a run for another listing, into another folder, is not held up either.
    const other = await harness({ batchId: 'run-3', concurrency: 2 }, stateFolder);
    await other.engine.enqueue(others, other.folder);
    expect(await other.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), other.folder, others);
  });

  it('is not blocked by a queue pause an older version of the command line left in the ledger', async () => {
    const files = await listing(emulator(), evening);
    const stateFolder = await temporaryFolder();
    const { ledger } = openStateFile(path.join(stateFolder, LEDGER_FILE));
    ledger.setSetting('queue-paused', 'true');
    ledger.close();

    const h = await harness({ batchId: 'run-after-upgrade' }, stateFolder);
    await h.engine.enqueue(files, h.folder);
    expect(await h.engine.whenSettled()).toBe('finished');
    await expectExactFolder(emulator(), h.folder, files);
  });
});

describe("the desktop app's queue pause", () => {
  it('is remembered across restarts, and a batch pause never becomes one', async () => {
    const files = await listing(emulator(), evening);
    const stateFolder = await temporaryFolder();

    const batch = await harness({ batchId: 'run-1', openSink: diskThatFills(() => true) }, stateFolder);
    await batch.engine.enqueue(files, batch.folder);
    expect(await batch.engine.whenSettled()).toBe('paused');
    await closeEarly(batch);

    const { ledger } = openStateFile(path.join(stateFolder, LEDGER_FILE));
    expect(ledger.getSetting('queue-paused')).toBeUndefined();
    ledger.close();

    const appState = await temporaryFolder();
    const app = await harness({}, appState);
    app.engine.pauseAll();
    await closeEarly(app);

    emulator().resetStats();
    const restarted = await harness({}, appState);
    expect(restarted.engine.overall().queuePaused).toBe(true);
    await restarted.engine.enqueue(files, restarted.folder);
    expect(await restarted.engine.whenSettled()).toBe('paused');
    expect(emulator().stats().downloadsStarted).toBe(0);
    expect(await listFolder(restarted.folder)).toEqual([]);
    restarted.engine.resumeAll();
    expect(await restarted.engine.whenSettled()).toBe('finished');
    await closeEarly(restarted);

    // Resumed, it stays resumed after the next restart.
    const again = await harness({}, appState);
    expect(again.engine.overall().queuePaused).toBe(false);
    again.engine.pauseAll();
    await closeEarly(again);

    // A command-line run on the same state folder resuming its own batch does not resume the app's queue.
    const run = await harness({ batchId: 'run-2' }, appState);
    run.engine.resumeAll();
    await closeEarly(run);
    const app2 = await harness({}, appState);
    expect(app2.engine.overall().queuePaused).toBe(true);
  });
});
