// A campaign whose server moved (issue 29, item 2), in the core against two emulators of the same archive over real
// HTTP: the campaign remembers every server its queries were listed from, windowed or whole (migration 15, filled from
// the windows of a ledger from before), and a file to fetch that no listing of the new server was asked about is
// fetched from the new server at the address rebuilt there, never refused as one the new server does not list.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CampaignQuery } from '../../../src-shared/campaigns/campaign-types';
import { STATE_DOMAINS } from '../../../src-main/core/app/open-engine';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import { COUNTING_TRIGGERS } from '../../../src-main/core/campaigns/campaign-counting';
import { StateDatabase } from '../../../src-main/core/state/state-database';
import { createEmulator, type RunningEmulator } from '../../../src-main/emulator';
import { temporaryFolder, useEmulator } from '../../helpers/fixtures';
import { useHarnesses } from '../downloads/engine-harness';
import { serviceOver, syncAndWait } from './campaign-harness';

// Two long-settled month windows of the same archive on both servers.
const ARCHIVE = { imageSize: 32, lastDay: '2025-03-01', days: 2, cadenceSeconds: 3600, zeroFilesizeRate: 0 };
const both: CampaignQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-02-28', 'end-date': '2025-03-01T23:59:59' } };
const februaryOnly: CampaignQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-02-28', 'end-date': '2025-02-28T23:59:59' } };
const marchOnly: CampaignQuery = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-01', 'end-date': '2025-03-01T23:59:59' } };

const before = useEmulator(ARCHIVE);
const { harness } = useHarnesses(before);
const others: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(others.splice(0).map((server) => server.close()));
});

async function anotherServer(): Promise<RunningEmulator> {
  const server = await createEmulator(ARCHIVE);
  others.push(server);
  return server;
}

describe('a campaign whose server moved, in the core', () => {
  it('fetches a file no listing of the new server was asked about from the new server', { timeout: 60_000 }, async () => {
    const h = await harness();
    const service = serviceOver(h);
    const queries = [februaryOnly, marchOnly];
    const campaign = await service.create({ name: 'moved', folder: path.join(await temporaryFolder(), 'moved'), layout: '', queries });
    expect((await syncAndWait(service, h, 'moved')).refused).toEqual([]);
    const february = service.store.files(campaign.id).find((file) => file.dateObs!.startsWith('2025-02-28'))!;
    expect(service.store.serversListedFrom(campaign.id)).toEqual([before().url]);

    const after = await anotherServer();
    h.client.configure({ baseUrl: after.url });
    // February's query is gone and March's window is settled: no listing of the new server is asked about the file.
    await service.update('moved', { queries: [marchOnly] });
    await rm(february.targetPath);
    const report = await syncAndWait(service, h, 'moved');

    expect(report.refused).toEqual([]);
    expect(Object.keys(after.stats().downloadsByFile)).toEqual([february.filename]);
    const fetched = service.store.filesAt(campaign.id, [february.relativePath])[0]!;
    expect(fetched.state).toBe('done');
    expect(service.store.serversListedFrom(campaign.id)).toEqual([before().url, after.url]);
  });

  it('remembers the server of a query listed whole (with --every), and takes the windows’ servers of a ledger from before', async () => {
    const h = await harness();
    const service = serviceOver(h);
    const every = { ...both, filters: { ...both.filters, every: '6hours' } };
    const whole = await service.create({ name: 'whole', folder: path.join(await temporaryFolder(), 'whole'), layout: '', queries: [every] });
    const windowed = await service.create({ name: 'windowed', folder: path.join(await temporaryFolder(), 'windowed'), layout: '', queries: [both] });
    await syncAndWait(service, h, 'whole');
    await syncAndWait(service, h, 'windowed');
    expect(service.store.serversListedFrom(whole.id)).toEqual([before().url]);
    await h.close();

    // Back to version 14, before the campaign remembered its servers: the windows' servers are taken.
    const file = path.join(h.stateFolder, 'downloads.sqlite');
    const old = new Database(file);
    for (const name of COUNTING_TRIGGERS.keys()) old.exec(`DROP TRIGGER ${name}`);
    old.exec(`ALTER TABLE campaigns DROP COLUMN servers_listed_from; DROP TABLE campaign_counts; DROP TABLE campaign_counting_held; ALTER TABLE campaigns DROP COLUMN counted_since;
      ALTER TABLE campaigns ADD COLUMN remembered_counts TEXT; PRAGMA user_version = 14;`);
    old.close();
    const state = StateDatabase.open(file, STATE_DOMAINS);
    try {
      const store = new CampaignStore(state);
      expect(store.serversListedFrom(windowed.id)).toEqual([before().url]);
      // A query listed whole has no windows to say where it was listed from.
      expect(store.serversListedFrom(whole.id)).toEqual([]);
    } finally {
      state.close();
    }
  });
});
