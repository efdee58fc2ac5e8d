// How long the core's event loop stalls while Browse's search works over a million files (six months of KCor pB at
// 2 s, as browse-million lists): while the listing arrives and is kept, then while the first page by each column is
// asked for (the column's index made). The core answers pages, the download engine and the window on that one loop,
// so its longest stall is what a user waits on elsewhere. Through the app core's own handlers, as the window asks.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startWebApp } from '../../src-main/web/web-app';
import type { ContractHandlers } from '../../src-shared/contract/contract';
import { RESULT_SORT_KEYS } from '../../src-shared/search/result-page';
import { startEmulator, stopEmulator } from './emulator-process';
import { projectPaths } from './project-paths';

const QUERY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2024-09-24', 'end-date': '2025-03-25' } } as const;
const EMULATOR_ARGS = ['--cadence', '2', '--days', '181', '--image-size', '8'];
const SORTED_KEYS = RESULT_SORT_KEYS.filter((key) => key !== 'listed');
/** How often the window asks for the count while the listing arrives (its pages in view are read again as it grows). */
const POLL_MS = 100;
/** How often the stall probe's timer fires, ms. */
const SAMPLE_MS = 5;

interface StallPhase {
  /** The longest the event loop was held up, and how many times it was for over 50 ms. */
  maxStallMs: number;
  stallsOver50Ms: number;
  /** From the request to its answer (the search's first rows, or the page). */
  answerMs: number;
}

export interface SearchStallResult {
  loadAverage: number;
  files: number;
  arriving: StallPhase & { completeMs: number };
  firstSort: Record<string, StallPhase>;
}

export async function runSearchStallProbe(): Promise<SearchStallResult> {
  const paths = projectPaths();
  const loadAverage = os.loadavg()[0]!;
  const emulator = await startEmulator(paths.cliBin, EMULATOR_ARGS);
  const work = await mkdtemp(path.join(os.tmpdir(), 'search-stall-'));
  try {
    // The emulator makes its catalogue on the first listing: made before anything is timed.
    await (await fetch(`${emulator.url}/v1/instruments/kcor/products/pb/files?start-date=2024-09-24&end-date=2024-09-24`)).arrayBuffer();
    const app = await startWebApp({
      port: 0,
      stateFolder: work,
      rendererFolder: paths.rendererFolder,
      version: 'probe',
      downloadFolder: work,
      server: { baseUrl: emulator.url },
    });
    try {
      return { loadAverage, ...(await measure(app.core.handlers)) };
    } finally {
      await app.close();
    }
  } finally {
    await stopEmulator(emulator);
    await rm(work, { recursive: true, force: true });
  }
}

/** The event loop's stalls: a timer every SAMPLE_MS notes how late it fires (a stall ends before it can fire). */
function stallProbe(): { take: () => Promise<{ maxStallMs: number; stallsOver50Ms: number }>; stop: () => void } {
  let last = performance.now();
  let maxStallMs = 0;
  let stallsOver50Ms = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const stall = now - last - SAMPLE_MS;
    last = now;
    maxStallMs = Math.max(maxStallMs, stall);
    if (stall > 50) stallsOver50Ms += 1;
  }, SAMPLE_MS);
  return {
    take: async () => {
      // A stall just ended is noted when the timer next fires.
      await sleep(4 * SAMPLE_MS);
      const figures = { maxStallMs, stallsOver50Ms };
      maxStallMs = 0;
      stallsOver50Ms = 0;
      return figures;
    },
    stop: () => clearInterval(timer),
  };
}

async function measure(handlers: ContractHandlers): Promise<Omit<SearchStallResult, 'loadAverage'>> {
  const probe = stallProbe();
  const phase = async (answerMs: number): Promise<StallPhase> => ({ ...(await probe.take()), answerMs });
  await probe.take();
  const startedAt = performance.now();
  const { searchId } = await handlers['search:start'](QUERY);
  const firstRowsMs = performance.now() - startedAt;
  let count = 0;
  for (;;) {
    const page = await handlers['search:page']({ searchId, offset: 0, limit: 100, sort: { key: 'listed', direction: 'ascending' } });
    count = page.count;
    if (page.complete || page.failure) {
      if (page.failure) throw new Error(`the search stopped: ${page.failure.message}`);
      break;
    }
    await sleep(POLL_MS);
  }
  const completeMs = performance.now() - startedAt;
  const arriving = { ...(await phase(firstRowsMs)), completeMs };
  const firstSort: Record<string, StallPhase> = {};
  for (const key of SORTED_KEYS) {
    const askedAt = performance.now();
    const page = await handlers['search:page']({ searchId, offset: 0, limit: 100, sort: { key, direction: 'ascending' } });
    if (page.rows.length !== 100) throw new Error(`the first page by ${key} held ${page.rows.length} rows`);
    firstSort[key] = await phase(performance.now() - askedAt);
  }
  probe.stop();
  return { files: count, arriving, firstSort };
}
