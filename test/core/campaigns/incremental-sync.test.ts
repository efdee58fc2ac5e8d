// Incremental sync (issue 22, item 2): a campaign remembers each window of its queries' listings, and a sync lists
// again only those that can still change. The emulator's days end yesterday (UT), so the windows of the last week
// are unsettled and the older ones settle after their first listing; its catalogue of a day depends only on the
// seed and the day, so adding days (after the last, or before the first) adds files and changes no other.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { listing, useHarnesses } from '../downloads/engine-harness';
import { serviceOver } from './campaign-harness';

const DAY_MS = 24 * 60 * 60 * 1000;
const SETTLE_DAYS = 7;

const dayOf = (epochMs: number): string => new Date(epochMs).toISOString().slice(0, 10);
const today = dayOf(Date.now());
const yesterday = dayOf(Date.now() - DAY_MS);

const emulator = useEmulator({ imageSize: 32 });
const { harness } = useHarnesses(emulator);

/** KCor from the emulator's first day on, open-ended: windowed by month up to now. */
function kcorFrom(firstDay: string): CampaignQuery {
  return { instrument: 'kcor', product: 'pb', filters: { 'start-date': firstDay } };
}

/** The emulator's days: `days` days ending `lastDay`, KCor every `cadence` seconds. */
function catalogue(lastDay: string, days: number, cadenceSeconds: number): string {
  emulator().setOptions({ lastDay, days, cadenceSeconds, zeroFilesizeRate: 0 });
  return dayOf(Date.parse(`${lastDay}T00:00:00Z`) - (days - 1) * DAY_MS);
}

/** Listing requests the emulator answered since its statistics were reset (every request but the downloads). */
function listingRequests(): number {
  const stats = emulator().stats();
  return stats.requests - stats.downloadsStarted;
}

/** The month windows of a query from `firstDay` to now whose end is within the settle days (or later). */
function unsettledWindows(firstDay: string, listedAt: number): number {
  let count = 0;
  const first = new Date(`${firstDay}T00:00:00Z`);
  for (let month = Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), 1); month <= Date.now();) {
    const next = new Date(month);
    const end = Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 1);
    if (listedAt < end + SETTLE_DAYS * DAY_MS) count += 1;
    month = end;
  }
  return count;
}

async function campaignOver(query: CampaignQuery) {
  const h = await harness({ concurrency: 8 });
  const service = serviceOver(h);
  const folder = path.join(await temporaryFolder(), 'mirror');
  const campaign = await service.create({ name: 'mirror', folder, layout: '{yyyy}-{mm}-{dd}', queries: [query] });
  const sync = async (options: { full?: boolean; signal?: AbortSignal; onPhase?: (phase: string, listed: number) => void } = {}) => {
    const run = await service.sync(campaign.name, h.engine, { settleDays: SETTLE_DAYS, ...options });
    await h.engine.whenSettled();
    return { ...run, report: run.refresh() };
  };
  return { h, service, campaign, sync };
}

/**
 * Puts the archive's files of the query in the campaign's folder, as a mirror made before (or by another program)
 * would have them: the first sync takes them in rather than fetching 10,000 files, which would take a minute here.
 */
async function mirrorInFolder(folder: string, query: CampaignQuery): Promise<number> {
  const files = await listing(emulator(), query.filters, query.instrument, query.product);
  for (const file of files) {
    const day = path.join(folder, file['date-obs'].slice(0, 10));
    await mkdir(day, { recursive: true });
    await writeFile(path.join(day, file.filename.replace(/\.gz$/, '')), await emulator().fileBytes(file.instrument, file.filename));
  }
  return files.length;
}

describe('incremental campaign sync', () => {
  it('a second sync of a 10,000-file campaign lists only the windows that can still change and downloads nothing; a new day is fetched alone', async () => {
    const firstDay = catalogue(yesterday, 40, 45);
    const { service, campaign, sync } = await campaignOver(kcorFrom(firstDay));
    const mirrored = await mirrorInFolder(campaign.folder, kcorFrom(firstDay));
    expect(mirrored).toBeGreaterThanOrEqual(10_000);
    const first = await sync();
    expect(first.report.total).toMatchObject({ listed: mirrored, onDisk: mirrored, queued: 0, failed: 0, missing: 0 });
    expect(emulator().stats().downloadsStarted).toBe(0);
    const firstListedAt = Date.now();

    emulator().resetStats();
    const second = await sync();
    expect(emulator().stats().downloadsStarted).toBe(0);
    const relisted = unsettledWindows(firstDay, firstListedAt);
    expect(second.windows).toMatchObject({ listed: relisted, changed: 0 });
    expect(second.windows.settled).toBeGreaterThan(0);
    // One request per window listed again (each far below the listing limit), none for the settled ones.
    expect(listingRequests()).toBe(relisted);
    expect(second.report.total).toMatchObject({ new: 0, onDisk: first.report.total.onDisk, queued: 0, missing: 0 });

    // The archive adds today: the next sync lists the window it falls in, and fetches its files and no others.
    catalogue(today, 41, 45);
    emulator().resetStats();
    const third = await sync();
    const fetched = Object.keys(emulator().stats().downloadsByFile);
    expect(fetched.length).toBeGreaterThan(0);
    expect(third.report.total.new).toBe(fetched.length);
    const compactToday = today.replaceAll('-', '');
    expect(fetched.filter((name) => !name.startsWith(compactToday))).toEqual([]);
    expect(await readdir(path.join(campaign.folder, today))).toHaveLength(fetched.length);
    expect(service.overview(service.store.require(campaign.name)).counts).toMatchObject({ onDisk: first.report.total.onDisk + fetched.length, missing: 0 });
  }, 120_000);

  it('--full lists every window again and finds a file the archive added to a settled window', async () => {
    // The first sync knows the archive from its second day on; the archive then adds a day before it (backfilled),
    // in the first window, which has settled.
    const firstDay = catalogue(yesterday, 70, 900);
    catalogue(yesterday, 69, 900);
    const { sync } = await campaignOver(kcorFrom(firstDay));
    const first = await sync();
    catalogue(yesterday, 70, 900);

    emulator().resetStats();
    const normal = await sync();
    expect(normal.windows.settled).toBeGreaterThan(0);
    expect(normal.report.total.new).toBe(0);
    expect(emulator().stats().downloadsStarted).toBe(0);

    emulator().resetStats();
    const full = await sync({ full: true });
    expect(full.windows).toMatchObject({ listed: first.windows.listed, settled: 0, changed: 1 });
    const fetched = Object.keys(emulator().stats().downloadsByFile);
    expect(fetched.length).toBeGreaterThan(0);
    expect(full.report.total.new).toBe(fetched.length);
    expect(fetched.filter((name) => !name.startsWith(firstDay.replaceAll('-', '')))).toEqual([]);
  }, 60_000);

  it('a window whose listing was cut short is listed again by the next sync, settled or not', async () => {
    const firstDay = catalogue(yesterday, 70, 900);
    const { h, service, campaign, sync } = await campaignOver(kcorFrom(firstDay));
    const controller = new AbortController();
    await expect(
      service.sync(campaign.name, h.engine, {
        settleDays: SETTLE_DAYS,
        signal: controller.signal,
        // Stopped once the first window's listing has begun handing entries over.
        onPhase: (phase, listed) => {
          if (phase === 'listing' && listed > 0) controller.abort();
        },
      }),
    ).rejects.toThrow(/sync/i);
    await h.engine.whenSettled();

    const next = await sync();
    expect(next.windows.settled).toBe(0);
    expect(next.windows.listed).toBeGreaterThan(1);
    expect(next.report.total).toMatchObject({ queued: 0, failed: 0, missing: 0 });
    emulator().resetStats();
    const after = await sync();
    expect(after.windows.settled).toBeGreaterThan(0);
    expect(emulator().stats().downloadsStarted).toBe(0);
  }, 60_000);

  it('changing a query forgets its windows, so the next sync lists it whole; another query keeps its own', async () => {
    const firstDay = catalogue(yesterday, 70, 900);
    const { service, campaign, sync } = await campaignOver(kcorFrom(firstDay));
    const nrgf: CampaignQuery = { instrument: 'kcor', product: 'nrgf', filters: { 'start-date': firstDay } };
    await service.update(campaign.name, { queries: [kcorFrom(firstDay), nrgf] });
    const first = await sync();
    const kept = service.store.windows(campaign.id, nrgf).size;
    expect(kept).toBeGreaterThan(1);

    const changed = { ...kcorFrom(firstDay), filters: { 'start-date': firstDay, 'end-date': `${yesterday}T23:59:59` } };
    await service.update(campaign.name, { queries: [changed, nrgf] });
    expect(service.store.windows(campaign.id, kcorFrom(firstDay)).size).toBe(0);
    expect(service.store.windows(campaign.id, nrgf).size).toBe(kept);
    const next = await sync();
    // The changed query's windows are all listed; of the other's, only those still unsettled.
    expect(next.windows.listed).toBe(service.store.windows(campaign.id, changed).size + unsettledWindows(firstDay, Date.now()));
    expect(next.windows.settled).toBe(kept - unsettledWindows(firstDay, Date.now()));
    expect(next.report.total).toMatchObject({ new: 0, onDisk: first.report.total.onDisk });
  }, 60_000);

  it('windows a query with no start date from the instrument’s first day, and lists again only its last months', async () => {
    catalogue(yesterday, 40, 1800);
    const { sync } = await campaignOver({ instrument: 'kcor', product: 'pb', filters: {} });
    const first = await sync();
    expect(first.report.total).toMatchObject({ queued: 0, failed: 0, missing: 0 });
    expect(first.report.total.onDisk).toBeGreaterThan(100);
    // The emulator's KCor begins on 2013-09-30: a window for every month since.
    expect(first.windows.listed).toBe(unsettledWindows('2013-09-30', 0));
    emulator().resetStats();
    const second = await sync();
    expect(second.windows.listed).toBe(unsettledWindows('2013-09-30', Date.now()));
    expect(emulator().stats().downloadsStarted).toBe(0);
  }, 60_000);
});
