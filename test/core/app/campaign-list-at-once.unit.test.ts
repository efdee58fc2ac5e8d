// The Campaigns screen's list answers at once with each campaign's true counts: the state database keeps them as
// files change (campaign-counting.ts), so the list reads a few rows a campaign and never passes over its files.
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppCampaigns, type CampaignDeps } from '../../../src-main/core/app/campaign-handlers';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import type { CampaignOverview } from '../../../src-shared/campaigns/campaign-types';
import { kcorFileRecord, recordCampaignFiles } from '../../../scripts/bench/campaign-records';
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
  // Every statement the list runs.
  const prepare = state.connection.prepare.bind(state.connection);
  const statements: string[] = [];
  vi.spyOn(state.connection, 'prepare').mockImplementation(((sql: string) => {
    statements.push(sql);
    return prepare(sql);
  }) as typeof state.connection.prepare);
  return { handlers: app.handlers(), ledger, ids, changed, statements };
}

describe("the campaign list's counts", () => {
  it('are true at once, read from the kept counts without a pass over the files, and follow each change', async () => {
    const { handlers, ledger, ids, statements } = campaignsOver(30, 10);
    const [first] = await handlers['campaigns:list']();
    expect(first).toMatchObject({ name: 'mirror', counts: { files: 30, onDisk: 10, queued: 20 } });
    expect(first).not.toHaveProperty('countsAre');
    expect(statements.filter((sql) => /FROM campaign_files/.test(sql))).toEqual([]);

    for (const job of ids.slice(10, 25)) ledger.markDone(job, { sha256: 'a'.repeat(64), bytesReceived: 1, bytesWritten: 1 });
    ledger.markFailed(ids[25]!, 'http', 'gone');
    expect((await handlers['campaigns:list']())[0]!.counts).toMatchObject({ files: 30, onDisk: 25, queued: 4, failed: 1 });
  });
});
