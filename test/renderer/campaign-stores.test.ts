// The campaign stores against the fake contract, without a window: the list (kept current by events, a list
// answer older than an event dropped), the New/Edit form (only what changed is sent) and the Import form.
import { describe, expect, it } from 'vitest';
import { apiClientFrom } from '../../src-renderer/lib/api';
import { CampaignFormStore } from '../../src-renderer/campaigns/campaign-form.svelte';
import { CampaignImportStore } from '../../src-renderer/campaigns/campaign-import.svelte';
import { CampaignListStore } from '../../src-renderer/campaigns/campaign-list.svelte';
import type { CampaignOverview } from '../../src-shared/campaigns/campaign-types';
import { FakeContract, KCOR_PB_DAY, type CampaignSeed } from './fake-contract';

function stores(seeds: CampaignSeed[] = []) {
  const fake = new FakeContract();
  for (const seed of seeds) fake.campaigns.seed(seed);
  const client = apiClientFrom(fake);
  const list = new CampaignListStore(client);
  return { fake, list, form: new CampaignFormStore(client, list), imports: new CampaignImportStore(client, list) };
}

const names = (campaigns: readonly CampaignOverview[]): string[] => campaigns.map((campaign) => campaign.name);

describe('the campaign list store', () => {
  it('drops a list answer asked for before a campaigns:changed event, which is newer', async () => {
    const { fake, list } = stores([{ name: 'Eclipse' }]);
    const stale = fake.campaigns.list();
    const release = fake.hold('campaigns:list', () => stale);
    const loading = list.load();
    fake.campaigns.seed({ name: 'Flare' });
    fake.emit('campaigns:changed', fake.campaigns.list());
    release();
    await loading;
    expect(names(list.campaigns)).toEqual(['Eclipse', 'Flare']);
    expect(list.loaded).toBe(true);
  });
});

describe('the campaign form store', () => {
  it('sends only what changed, and the list shows the renamed campaign with its open panel', async () => {
    const other = { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24', 'wave-region': '1074' } };
    const { fake, list, form } = stores([{ name: 'Eclipse', queries: [KCOR_PB_DAY, other], autoSyncHours: 6 }]);
    await list.load();
    list.openPanel('Eclipse', 'export');
    form.startEdit('Eclipse');
    expect(form.form).toMatchObject({ mode: 'edit', original: 'Eclipse', autoSync: true, autoSyncHours: 6 });
    form.form!.name = '2024 eclipse';
    form.form!.layout = '{instrument}/{yyyy}';
    form.removeQuery(1);
    expect(await form.save()).toBe(true);
    expect(fake.callsTo('campaigns:update')).toEqual([
      { name: 'Eclipse', change: { name: '2024 eclipse', layout: '{instrument}/{yyyy}', queries: [KCOR_PB_DAY] } },
    ]);
    expect(names(list.campaigns)).toEqual(['2024 eclipse']);
    expect(list.activityOf('2024 eclipse').panel).toBe('export');
    expect(form.form).toBeNull();
  });

  it('keeps the form and what was typed when the core refuses, until dismissed or closed', async () => {
    const { list, form } = stores([{ name: 'Eclipse' }]);
    await list.load();
    form.startNew([KCOR_PB_DAY]);
    form.form!.name = 'Eclipse';
    const saving = form.save();
    expect(form.saving).toBe(true);
    expect(await saving).toBe(false);
    expect(form.saving).toBe(false);
    expect(form.error?.message).toBe('A campaign named "Eclipse" exists already; choose another name.');
    expect(form.form?.name).toBe('Eclipse');
    form.dismissError();
    expect(form.error).toBeNull();
    form.form!.name = 'Eclipse';
    await form.save();
    expect(form.error).not.toBeNull();
    form.close();
    expect(form.error).toBeNull();
    expect(form.form).toBeNull();
  });

  it('refuses a name or layout the shared rules refuse without asking the core', async () => {
    const { fake, form } = stores();
    form.startNew();
    form.form!.layout = '{nonsense}';
    expect(await form.save()).toBe(false);
    expect(form.problems.name).not.toBeNull();
    expect(form.problems.layout).not.toBeNull();
    expect(fake.callsTo('campaigns:create')).toEqual([]);
  });
});

describe('the campaign import store', () => {
  it('shows the refusal, then on a good file adds the campaign to the list with a note and closes', async () => {
    const { list, imports } = stores();
    await list.load();
    imports.open();
    expect(await imports.importText('not json', '', '')).toBe(false);
    expect(imports.error).not.toBeNull();
    expect(imports.isOpen).toBe(true);
    const text = JSON.stringify({ name: 'Shared eclipse', layout: '', queries: [KCOR_PB_DAY] });
    expect(await imports.importText(text, '/data/eclipse', '')).toBe(true);
    expect(imports.error).toBeNull();
    expect(imports.isOpen).toBe(false);
    expect(names(list.campaigns)).toEqual(['Shared eclipse']);
    expect(list.note).toBe('Imported the campaign "Shared eclipse" into /data/eclipse. Press Sync to fetch its files.');
  });
});
