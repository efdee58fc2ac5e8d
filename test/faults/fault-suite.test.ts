// The fault suite: the real download engine, in process, against the emulator misbehaving in every way the issue
// names. The listing goes through the listing enqueuer, as the command line and the app take it. After each case:
// the engine finished (or the listing failed with a plain sentence), every file is done or failed with a plain
// reason, and the folder keeps both promises of scripts/faults/folder-invariants.ts.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FileEntry } from '../../src-shared/api/schemas';
import type { ClientSettings } from '../../src-main/core/api/client-settings';
import { MlsoClient } from '../../src-main/core/api/mlso-client';
import type { DownloadEngineOptions } from '../../src-main/core/downloads/download-engine';
import type { Job } from '../../src-main/core/downloads/download-ledger';
import { createEmulator, DEFAULT_EMULATOR_OPTIONS, type DownloadFault, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { listing, useHarnesses, type Harness } from '../core/downloads/engine-harness';
import { checkFolderInvariants } from '../../scripts/faults/folder-invariants';
import { plainReasonProblems } from './plain-reason';
import { waitFor } from '../helpers/wait-for';

const BASE_OPTIONS: Partial<EmulatorOptions> = { imageSize: 32 };
/** Eight KCor pB files, 15 s apart. */
const WINDOW = { 'start-date': '2025-03-24T18:00:00', 'end-date': '2025-03-24T18:02:00' };

// The suite runs its own emulator rather than the shared fixture's: one case closes it and starts another on the
// same port, as a server that restarts does.
let server: RunningEmulator | undefined;
let serverDown = false;
const current = (): RunningEmulator => {
  if (!server) throw new Error('emulator not started');
  return server;
};
beforeAll(async () => {
  server = await createEmulator(BASE_OPTIONS);
});
afterEach(async () => {
  if (serverDown) await startAgain();
  current().setOptions({ ...DEFAULT_EMULATOR_OPTIONS, ...BASE_OPTIONS, port: 0 });
  current().clearFaults();
  current().resetStats();
});
afterAll(async () => {
  await server?.close();
});

async function stopServer(): Promise<void> {
  serverDown = true;
  await current().close();
}

/** A new emulator on the same port with the same options: a server back after a restart, with no sessions. */
async function startAgain(): Promise<void> {
  const { port, ...options } = current().options;
  server = await createEmulator({ ...options, port });
  serverDown = false;
}

const { harness } = useHarnesses(current);

interface CaseContext {
  server: () => RunningEmulator;
  files: readonly FileEntry[];
  inject: (index: number, fault: DownloadFault, times: number) => void;
  /** The file's next downloads get these faults, in order. */
  injectSequence: (index: number, faults: readonly DownloadFault[]) => void;
}

interface FaultCase {
  name: string;
  options?: Partial<EmulatorOptions>;
  engine?: Partial<DownloadEngineOptions>;
  client?: Partial<ClientSettings>;
  /** Before the run (faults injected per file of the listing). */
  arrange?: (ctx: CaseContext) => void;
  /** Alongside the run, from the moment the listing is requested. */
  meanwhile?: (ctx: CaseContext) => Promise<void>;
  /** Files (by index, or `some` of them) that must fail, and what their reason says; every other file arrives. */
  fails?: { files: readonly number[] | 'some'; reason: RegExp };
  /** The listing itself must fail with this message (the engine is then closed, as the command line does). */
  listingFails?: RegExp;
  /** Further checks once the run is over. */
  then?: (ctx: CaseContext, run: { harness: Harness; jobs: Job[] }) => void | Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const CASES: FaultCase[] = [
  {
    name: '5xx bursts: a 500, a 503 and an HTML 500 page before each file, ten 500s for one',
    engine: { maxAttempts: 4 },
    arrange: ({ files, inject, injectSequence }) => {
      const burst: DownloadFault[] = ['status-500', 'status-503', 'html-500'];
      files.forEach((_, i) => injectSequence(i, [...burst.slice(i % 3), ...burst.slice(0, i % 3)]));
      inject(0, 'status-500', 10);
    },
    fails: { files: [0], reason: /^The server answered 500: internal server error \(gave up after 4 attempts\)\.$/ },
    then: (_, { jobs }) => {
      for (const job of jobs.filter((j) => j.state === 'done')) expect(job.attempts, job.filename).toBe(4);
    },
  },
  {
    name: 'connection resets mid-body: twice per file, ten times for one',
    // Larger files at a paced rate, so part of each body is read (and written) before the connection drops: a
    // reset that arrives with the first bytes discards them unread.
    options: { imageSize: 128, bandwidthBytesPerSecond: 200_000 },
    engine: { maxAttempts: 4 },
    arrange: ({ files, inject }) => files.forEach((_, i) => inject(i, 'reset', i === 0 ? 10 : 2)),
    fails: {
      files: [0],
      reason: /^The connection to http:\/\/127\.0\.0\.1:\d+ was dropped before the answer was complete \(gave up after 4 attempts\)\. Try again\.$/,
    },
    then: ({ server, files }) => expect(server().stats().downloadsAborted).toBeGreaterThanOrEqual(4 + 2 * (files.length - 1)),
  },
  ...(['gzip-body', 'content-encoding'] as const).map((bodyForm): FaultCase => ({
    name: `truncated gzip (${bodyForm}): the stream ends cleanly part-way, once per file, ten times for one`,
    options: { bodyForm },
    engine: { maxAttempts: 3 },
    arrange: ({ files, inject }) => files.forEach((_, i) => inject(i, 'truncate', i === 0 ? 10 : 1)),
    fails: { files: [0], reason: /^\d{8}_\d{6}_kcor_l2_pb\.fts arrived incomplete \(the compressed stream ended early; gave up after 3 attempts\)\.$/ },
  })),
  {
    name: 'a 200 with an HTML page: signs in again; a file that stays a page fails',
    arrange: ({ inject }) => {
      for (const i of [1, 2, 3]) inject(i, 'html-200', 1);
      inject(0, 'html-200', 5);
    },
    fails: { files: [0], reason: /^The server sent a web page instead of \S+\.fts; the file was not saved \(signing in again did not help\)\.$/ },
    then: ({ server }) => expect(server().stats().authentications).toBeGreaterThanOrEqual(2),
  },
  {
    name: 'a 200 with a JSON body: signs in again; a file that stays a message fails',
    arrange: ({ inject }) => {
      for (const i of [1, 2, 3]) inject(i, 'json-200', 1);
      inject(0, 'json-200', 5);
    },
    fails: {
      files: [0],
      reason: /^The server sent a message instead of \S+\.fts: file \S+ is not available right now, try again later \(signing in again did not help\)\.$/,
    },
    then: ({ server }) => expect(server().stats().authentications).toBeGreaterThanOrEqual(2),
  },
  {
    name: 'a server that stops sending bytes: the idle timeout fires and the file is fetched again',
    engine: { stallTimeoutMs: 250, maxAttempts: 2 },
    arrange: ({ inject }) => {
      inject(1, 'stall', 1);
      inject(2, 'stall', 1);
      inject(0, 'stall', 5);
    },
    fails: { files: [0], reason: /^The download from http:\/\/127\.0\.0\.1:\d+ stopped sending data \(gave up after 2 attempts\)\. Try again\.$/ },
  },
  {
    name: "429 with Retry-After: the next request for the file waits at least the server's second",
    arrange: ({ inject }) => [0, 1, 2].forEach((i) => inject(i, 'status-429', 1)),
    then: ({ server, files }) => {
      // The emulator's own clock: each refused file came back no sooner than Retry-After (1 s) said.
      for (const file of files.slice(0, 3)) {
        const [refused, retried] = server().stats().downloadStartsByFile[file.filename] ?? [];
        expect(retried! - refused!, file.filename).toBeGreaterThanOrEqual(1000);
      }
    },
  },
  {
    name: 'sessions revoked by the server before their cookies expire, twice during the run',
    // Every answer 50 ms late and two files at a time: the run lasts long enough to be interrupted twice.
    options: { latencyMs: 50 },
    engine: { concurrency: 2 },
    meanwhile: async ({ server }) => {
      await waitFor(() => server().stats().downloadsCompleted >= 1, 'a file downloaded');
      server().expireSessions();
      await waitFor(() => server().stats().downloadsCompleted >= 4, 'four files downloaded');
      server().expireSessions();
    },
    then: ({ server }) => {
      const stats = server().stats();
      expect(stats.authentications).toBeGreaterThanOrEqual(3);
      expect(Object.keys(stats.downloadsByFile).some((name) => (stats.downloadsByFile[name] ?? 0) > 1)).toBe(true);
    },
  },
  {
    name: 'a file refused for want of a session, then answered 503, then refused again: signs in again each time',
    arrange: ({ injectSequence }) => injectSequence(0, ['unauthorized', 'status-503', 'unauthorized']),
    then: ({ server }) => expect(server().stats().authentications).toBe(3),
  },
  {
    name: 'the server goes away mid-run and comes back on the same address',
    options: { latencyMs: 50 },
    engine: { concurrency: 2, backoff: { baseMs: 100, maxMs: 400 }, maxAttempts: 10 },
    meanwhile: async ({ server }) => {
      await waitFor(() => server().stats().downloadsCompleted >= 2, 'two files downloaded');
      await stopServer();
      await sleep(500); // how long the server is away: the fault itself, not a wait for something to happen
      await startAgain();
    },
    // The new server knows none of the old sessions: signing in again is part of coming back.
    then: ({ server }) => {
      expect(server().stats().authentications).toBeGreaterThanOrEqual(1);
      expect(server().stats().downloadsCompleted).toBeGreaterThanOrEqual(1);
    },
  },
  {
    name: 'the server goes away for good: the files not yet fetched fail, saying it cannot be reached',
    options: { latencyMs: 50 },
    engine: { concurrency: 2, maxAttempts: 3 },
    meanwhile: async ({ server }) => {
      await waitFor(() => server().stats().downloadsCompleted >= 1, 'a file downloaded');
      await stopServer();
    },
    fails: {
      files: 'some',
      reason:
        /^(Cannot reach http:\/\/127\.0\.0\.1:\d+ \((ECONNREFUSED; )?gave up after 3 attempts\)\. Check the address and your network connection, then try again\.|The connection to http:\/\/127\.0\.0\.1:\d+ was dropped before the answer was complete \((ECONNRESET; )?gave up after 3 attempts\)\. Try again\.)$/,
    },
  },
  {
    name: 'redirect loops: to itself and back and forth fail at once; two redirects are followed',
    arrange: ({ inject }) => {
      inject(0, 'redirect-self', 1000);
      inject(1, 'redirect-loop', 1000);
      inject(2, 'redirect-self', 2);
    },
    fails: { files: [0, 1], reason: /^The server at http:\/\/127\.0\.0\.1:\d+ kept redirecting \(more than 10 times\); check the server address\.$/ },
    then: ({ server, files }, { jobs }) => {
      // A loop stays a loop: no second attempt, and the client gave up after its ten redirects.
      for (const job of jobs.filter((j) => j.state === 'failed')) expect(job.attempts).toBe(1);
      expect(server().stats().downloadsByFile[files[0]!.filename]).toBe(11);
    },
  },
  {
    name: 'a listing that never ends (flood): stops at the size limit, having queued no more than the limit holds',
    options: { endlessListing: 'flood' },
    client: { maxListingBytes: 256 * 1024 },
    listingFails:
      /^The file listing from http:\/\/127\.0\.0\.1:\d+ is larger than the 256 KB limit; narrow the search \(fewer dates, or one file per period\) or raise the listing size limit\.$/,
    then: async ({ server }, { jobs }) => {
      // Memory stays bounded by the limit: an entry is ~250 bytes on the wire, and the connection was dropped.
      expect(jobs.length).toBeLessThan((256 * 1024) / 200);
      await waitFor(() => server().stats().activeListings === 0, 'the listing’s connection to close');
    },
  },
  {
    name: 'a listing that never ends (trickle): stops at the deadline',
    options: { endlessListing: 'trickle' },
    client: { listingDeadlineMs: 800 },
    listingFails:
      /^The server at http:\/\/127\.0\.0\.1:\d+ did not finish sending the file listing within 800 ms; try again later, narrow the search \(fewer dates, or one file per period\) or raise the listing time limit\.$/,
    then: async ({ server }) => waitFor(() => server().stats().activeListings === 0, 'the listing’s connection to close'),
  },
  {
    name: 'a listing that never closes (silent): stops at the idle timeout',
    options: { endlessListing: 'silent' },
    client: { timeoutMs: 300 },
    listingFails: /^http:\/\/127\.0\.0\.1:\d+ did not answer in time\. Try again later\.$/,
    then: async ({ server }) => waitFor(() => server().stats().activeListings === 0, 'the listing’s connection to close'),
  },
];

describe('fault suite: the engine against a misbehaving server', () => {
  it.each(CASES)('$name', async (c) => {
    const files = await listing(current(), WINDOW);
    expect(files.length).toBeGreaterThanOrEqual(6);
    current().setOptions({ ...c.options });
    const ctx: CaseContext = {
      server: current,
      files,
      inject: (index, fault, times) => current().injectFault(files[index]!.filename, fault, times),
      injectSequence: (index, faults) => current().injectFaults(files[index]!.filename, faults),
    };
    c.arrange?.(ctx);
    current().resetStats();

    const client = new MlsoClient({ baseUrl: current().url, ...c.client });
    const h = await harness({ client, concurrency: 4, ...c.engine });
    const enqueuer = await h.engine.openEnqueuer(h.folder);
    const listed = client.streamFiles({ instrument: 'kcor', product: 'pb', filters: WINDOW }, (entries) => enqueuer.add(entries));
    const meanwhile = c.meanwhile?.(ctx);
    const listingError = await listed.then(
      () => undefined,
      (error: unknown) => error,
    );

    if (c.listingFails) {
      expect(listingError).toBeInstanceOf(Error);
      const message = (listingError as Error).message;
      expect(message).toMatch(c.listingFails);
      expect(plainReasonProblems(message)).toEqual([]);
      await h.engine.close(); // what the command line does when its listing fails (the ledger stays open to be checked)
    } else {
      expect(listingError).toBeUndefined();
      expect(await h.engine.whenSettled()).toBe('finished');
    }
    await meanwhile;

    const report = await checkFolderInvariants({
      folder: h.folder,
      ledger: h.ledger,
      expectedBytes: (instrument, name) => current().fileBytes(instrument, name),
    });
    expect(report.violations).toEqual([]);

    const jobs = h.ledger.list({ includeCleared: true });
    for (const job of jobs.filter((j) => j.state === 'failed')) expect(plainReasonProblems(job.lastError)).toEqual([]);
    if (!c.listingFails) {
      const jobOf = (file: FileEntry): Job | undefined => jobs.find((job) => job.targetPath === path.join(h.folder, file.filename));
      const failing = c.fails?.files;
      files.forEach((file, index) => {
        const job = jobOf(file);
        const mustFail = Array.isArray(failing) && failing.includes(index);
        const mayFail = failing === 'some';
        if (mustFail || (mayFail && job?.state === 'failed')) {
          expect(job?.state, file.filename).toBe('failed');
          expect(job?.lastError).toMatch(c.fails!.reason);
        } else {
          expect(job?.state, file.filename).toBe('done');
        }
      });
      if (failing === 'some') expect(jobs.some((job) => job.state === 'failed')).toBe(true);
      expect(report.finalFiles.length).toBe(jobs.filter((job) => job.state === 'done').length);
    }
    await c.then?.(ctx, { harness: h, jobs });
  });
});
