// The Campaigns screen's list at a million files (issue 22 item 3): counting a campaign that size takes about a
// second, so the list answers at once with the counts each campaign had when last counted (or none yet), marked so,
// and the fresh counts follow in `campaigns:changed`, remembered for the next opening.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCampaigns, type CampaignDeps } from '../../../src-main/core/app/campaign-handlers';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import type { CampaignOverview } from '../../../src-shared/campaigns/campaign-types';
import { kcorFileRecord, recordCampaignFiles } from '../../../scripts/bench/campaign-records';
import { waitFor } from '../../helpers/wait-for';
import { openStateFile } from '../state/state-file';

const opened: { close(): void }[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const ledger of opened.splice(0)) ledger.close();
});

/** A campaign of `count` files, `done` of them downloaded, and the app's handlers over it. */
function campaignsOver(count: number, done: number) {
  const { ledger, state } = openStateFile(':memory:');
  opened.push(ledger);
  const service = new CampaignService({ ledger, state, client: {} as MlsoClient });
  const folder = '/data/mirror';
  const { id } = service.store.create({
    name: 'mirror',
    folder,
    layout: '',
    queries: [{ instrument: 'kcor', product: 'pb', filters: {} }],
    autoSyncHours: null,
  });
  const records = Array.from({ length: count }, (_, index) => kcorFileRecord(path.join(folder, `f${index}.fts`), 1));
  const ids = recordCampaignFiles(service.store, ledger, id, records);
  for (const job of ids.slice(0, done)) ledger.markDone(job, { sha256: 'a'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
  const changed: CampaignOverview[][] = [];
  const deps = {
    service,
    engine: new EventEmitter(),
    settings: {},
    signedIn: () => Promise.resolve(true),
    emit: (event: string, payload: unknown) => {
      if (event === 'campaigns:changed') changed.push(payload as CampaignOverview[]);
    },
  } as unknown as CampaignDeps;
  const app = new AppCampaigns(deps);
  opened.push({ close: () => void app.close() });
  // Every count of the store, and a slow one: what the list must not wait for.
  const counted = vi.spyOn(service.store, 'countsInPieces');
  const countedAtOnce = vi.spyOn(service.store, 'counts');
  return { handlers: app.handlers(), service, ledger, ids, changed, counted, countedAtOnce };
}

describe("the campaign list's counts", () => {
  it('are answered at once, uncounted the first time, and the fresh counts follow in campaigns:changed', async () => {
    const { handlers, changed, counted, countedAtOnce } = campaignsOver(30, 10);
    const [first] = await handlers['campaigns:list']();
    expect(counted).not.toHaveBeenCalled();
    expect(countedAtOnce).not.toHaveBeenCalled();
    expect(first).toMatchObject({ name: 'mirror', countsAre: 'uncounted', counts: { files: 0, onDisk: 0 } });

    await waitFor(() => changed.length === 1, 'the fresh counts');
    expect(counted).toHaveBeenCalledTimes(1);
    expect(changed[0]![0]!.counts).toMatchObject({ files: 30, onDisk: 10, queued: 20 });
    expect(changed[0]![0]).not.toHaveProperty('countsAre');
  });

  it('are the last ones counted the next time, until the fresh ones come', async () => {
    const { handlers, ledger, ids, changed, counted } = campaignsOver(30, 10);
    await handlers['campaigns:list']();
    await waitFor(() => changed.length === 1, 'the first count');
    for (const job of ids.slice(10, 25)) ledger.markDone(job, { sha256: 'a'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
    counted.mockClear();

    const [again] = await handlers['campaigns:list']();
    expect(counted).not.toHaveBeenCalled();
    expect(again).toMatchObject({ countsAre: 'remembered', counts: { files: 30, onDisk: 10 } });
    await waitFor(() => changed.length === 2, 'the fresh counts');
    expect(changed[1]![0]!.counts).toMatchObject({ files: 30, onDisk: 25 });
    expect((await handlers['campaigns:list']())[0]).toMatchObject({ countsAre: 'remembered', counts: { onDisk: 25 } });
  });

  it('are counted a piece of the files at a time, the core answering other requests between pieces', async () => {
    const { service } = campaignsOver(30, 10);
    const { id } = service.store.require('mirror');
    const order: string[] = [];
    const counting = service.store.countsInPieces(id, null, undefined, 10).then((counts) => order.push(`counted ${counts.files}`));
    setImmediate(() => order.push('answered'));
    await counting;
    expect(order).toEqual(['answered', 'counted 30']);
    // Stopped between two pieces when the app closes.
    const closing = new AbortController();
    const stopped = service.store.countsInPieces(id, null, closing.signal, 10);
    closing.abort(new Error('closing'));
    await expect(stopped).rejects.toThrow('closing');
  });
});
