// The Campaigns screen: the list with counts and last sync, New/Edit (shared name and layout rules at their fields,
// the automatic sync option), Delete with confirmation, Sync with live progress, Verify's report, Export as a
// browser download with the acknowledgement, and Import of a shared campaign file.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import type { CampaignSeed } from './fake-contract';
import { DEMO_EMAIL, FakeContract, KCOR_PB_DAY } from './fake-contract';
import { renderApp } from './render-app';

const SIGNED_IN = { signedIn: true, email: DEMO_EMAIL, expiresAt: Date.now() + 86_400_000 };

async function openCampaigns(seeds: CampaignSeed[] = [], options: ConstructorParameters<typeof FakeContract>[0] = {}) {
  const fake = new FakeContract(options);
  for (const seed of seeds) fake.campaigns.seed(seed);
  const rendered = await renderApp(fake);
  await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
  await screen.findByRole('heading', { level: 1, name: 'Campaigns' });
  return rendered;
}

function card(name: string): HTMLElement {
  return screen.getByRole('listitem', { name });
}

function textbox(name: string): HTMLInputElement {
  return screen.getByRole('textbox', { name }) as HTMLInputElement;
}

async function type(field: HTMLInputElement, value: string): Promise<void> {
  await fireEvent.input(field, { target: { value } });
}

/** The text of the blob a Blob URL was made from (jsdom's Blob has no text()). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the campaign list', () => {
  it('shows each campaign with its counts, its last sync (relative and exact) and its five actions', async () => {
    const lastSyncAt = new Date(Date.now() - 5 * 60_000).toISOString();
    await openCampaigns([
      { name: '2024 eclipse', layout: '{instrument}/{yyyy}', lastSyncAt, files: { onDisk: 7, queued: 2, failed: 1, missing: 3 } },
      { name: 'Space weather', files: { onDisk: 4 } },
    ]);
    const eclipse = card('2024 eclipse');
    within(eclipse).getByText('7 on disk');
    within(eclipse).getByText('3 missing');
    within(eclipse).getByText('1 failed');
    within(eclipse).getByText('2 queued');
    within(eclipse).getByText('of 13 files');
    within(eclipse).getByText('5 min ago');
    const exact = `${lastSyncAt.slice(0, 16).replace('T', ' ')} UT`;
    within(eclipse).getByText(`(${exact})`);
    within(eclipse).getByText('/home/ada/mlso/2024-eclipse');
    within(eclipse).getByText('layout {instrument}/{yyyy}');
    within(eclipse).getByText('2025-03-24 – 2025-03-25 UT · Every 2hours');

    const weather = card('Space weather');
    within(weather).getByText('4 on disk');
    within(weather).getByText('0 missing');
    // Nothing queued: the queued count is left out.
    expect(within(weather).queryByText(/queued/)).toBeNull();
    within(weather).getByText('Never synced: press Sync to fetch its files.');
    for (const action of ['Sync', 'Verify', 'Export', 'Edit', 'Delete']) {
      within(eclipse).getByRole('button', { name: action });
      within(weather).getByRole('button', { name: action });
    }
  });

  it('says what to do when there is no campaign yet', async () => {
    await openCampaigns();
    screen.getByText('No campaigns yet.');
    screen.getByText(/Search in Browse and press Save as campaign/);
  });

  it('follows campaigns:changed without a reload', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse', files: { queued: 3 } }]);
    within(card('Eclipse')).getByText('0 on disk');
    fake.campaigns.arrive('Eclipse', 2);
    await waitFor(() => within(card('Eclipse')).getByText('2 on disk'));
    within(card('Eclipse')).getByText('1 queued');
  });
});

describe('new and edit', () => {
  it('refuses a layout that leaves the folder at its field, and shows an example path for a good one', async () => {
    const { fake } = await openCampaigns();
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    const name = textbox('Name');
    expect(document.activeElement).toBe(name);
    await type(name, 'Eclipse');
    const layout = textbox('Folder layout');
    await type(layout, '../{instrument}');
    const message =
      'The folder layout "../{instrument}" goes up or stays with "." or "..". Use folders and placeholders inside the campaign folder, e.g. {instrument}/{product}/{yyyy}/{mm}/{dd}.';
    await screen.findByText(message);
    expect(layout.getAttribute('aria-invalid')).toBe('true');
    expect(layout.getAttribute('aria-describedby')).toContain('campaign-layout-error');
    expect(document.getElementById('campaign-layout-error')?.textContent).toBe(message);
    await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
    expect(fake.callsTo('campaigns:create')).toEqual([]);
    expect(document.activeElement).toBe(layout);

    await type(layout, '{instrument}/{yyyy}/{mm}/{dd}');
    expect(screen.queryByText(message)).toBeNull();
    expect(layout.getAttribute('aria-invalid')).toBeNull();
    screen.getByText('/home/ada/mlso/eclipse/kcor/2025/03/24/20250324_180000_kcor_l2_pb.fts');
    // Every placeholder is offered as a hint.
    for (const placeholder of ['{instrument}', '{product}', '{yyyy}', '{mm}', '{dd}', '{wave_region}', '{obs_plan}']) screen.getByText(placeholder);
  });

  it('refuses an empty name with the shared rule, at the field', async () => {
    const { fake } = await openCampaigns();
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
    await screen.findByText('Give the campaign a name, e.g. "2024 eclipse".');
    expect(textbox('Name').getAttribute('aria-invalid')).toBe('true');
    expect(fake.callsTo('campaigns:create')).toEqual([]);
  });

  it('saves the automatic sync option, and refuses a period the core would refuse', async () => {
    const { fake } = await openCampaigns();
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    await type(textbox('Name'), 'Season');
    const hours = screen.getByRole('spinbutton', { name: 'Hours between automatic syncs' }) as HTMLInputElement;
    expect(hours.disabled).toBe(true);
    await fireEvent.click(screen.getByRole('checkbox', { name: /^Sync automatically every .*hours while the app is open$/ }));
    expect(hours.disabled).toBe(false);
    expect(hours.value).toBe('6');
    await type(hours, '0');
    await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
    await screen.findByText('Automatic sync runs every 1 to 8760 whole hours, e.g. 6.');
    expect(fake.callsTo('campaigns:create')).toEqual([]);
    await type(hours, '12');
    await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
    await screen.findByRole('listitem', { name: 'Season' });
    expect(fake.callsTo('campaigns:create')).toEqual([{ name: 'Season', layout: '', queries: [], autoSyncHours: 12 }]);
    within(card('Season')).getByText(/syncs every 12 hours while the app is open/);
  });

  it('edits a campaign: sends only what changed, including a rename and a removed query', async () => {
    const other = { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24', 'wave-region': '1074' } };
    const { fake } = await openCampaigns([{ name: 'Eclipse', queries: [KCOR_PB_DAY, other], autoSyncHours: 6 }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Edit' }));
    screen.getByRole('heading', { name: 'Edit "Eclipse"' });
    expect(textbox('Name').value).toBe('Eclipse');
    expect((screen.getByRole('checkbox', { name: /Sync automatically/ }) as HTMLInputElement).checked).toBe(true);
    await type(textbox('Name'), '2024 eclipse');
    await type(textbox('Folder layout'), '{instrument}/{yyyy}');
    await fireEvent.click(screen.getByRole('button', { name: /^Remove ucomp l2/ }));
    await fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('listitem', { name: '2024 eclipse' });
    expect(fake.callsTo('campaigns:update')).toEqual([
      { name: 'Eclipse', change: { name: '2024 eclipse', layout: '{instrument}/{yyyy}', queries: [KCOR_PB_DAY] } },
    ]);
    expect(screen.queryByRole('listitem', { name: 'Eclipse' })).toBeNull();
    expect(screen.queryByRole('heading', { name: /Edit/ })).toBeNull();
  });

  it("shows the core's refusal in the form and keeps what was typed", async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse' }]);
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    await type(textbox('Name'), 'Eclipse');
    await fireEvent.click(screen.getByRole('button', { name: 'Create campaign' }));
    await screen.findByText('A campaign named "Eclipse" exists already; choose another name.');
    screen.getByText('Not saved.');
    expect(textbox('Name').value).toBe('Eclipse');
    expect(fake.campaigns.states.size).toBe(1);
  });
});

describe('delete', () => {
  it('asks first, says the files stay on disk, and Cancel keeps the campaign', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse', files: { onDisk: 3 } }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Delete' }));
    const question = within(card('Eclipse')).getByRole('group', { name: /Delete the campaign "Eclipse"\?/ });
    within(question).getByText(/Its files stay on disk in/);
    within(question).getByText('/home/ada/mlso/eclipse');
    expect(document.activeElement).toBe(within(question).getByRole('button', { name: 'Cancel' }));
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(within(card('Eclipse')).queryByRole('group', { name: /Delete the campaign/ })).toBeNull();
    expect(fake.callsTo('campaigns:delete')).toEqual([]);

    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Delete' }));
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Delete campaign' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Eclipse' })).toBeNull());
    expect(fake.callsTo('campaigns:delete')).toEqual([{ name: 'Eclipse' }]);
    screen.getByText('Deleted the campaign "Eclipse"; its files stay in /home/ada/mlso/eclipse.');
  });

  it('closes the question with Escape', async () => {
    await openCampaigns([{ name: 'Eclipse' }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Delete' }));
    await fireEvent.keyDown(within(card('Eclipse')).getByRole('button', { name: 'Cancel' }), { key: 'Escape' });
    expect(within(card('Eclipse')).queryByRole('group', { name: /Delete the campaign/ })).toBeNull();
    expect(document.activeElement).toBe(within(card('Eclipse')).getByRole('button', { name: 'Delete' }));
  });
});

describe('sync', () => {
  it('shows the phase and the files listed, then the counts moving as the files arrive', async () => {
    const fake = new FakeContract({ session: SIGNED_IN, listingSize: 12 });
    let release!: () => void;
    fake.campaigns.syncGate = new Promise((resolve) => (release = resolve));
    fake.campaigns.seed({ name: 'Eclipse', files: {} });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    const eclipse = card('Eclipse');
    const sync = within(eclipse).getByRole('button', { name: 'Sync' }) as HTMLButtonElement;
    await fireEvent.click(sync);
    await within(eclipse).findByText('Listing the archive…');
    expect(sync.disabled).toBe(true);
    // Progress from the core, as it lists.
    fake.emit('campaigns:sync-progress', { campaign: 'Eclipse', phase: 'listing', listed: 1200 });
    await within(eclipse).findByText('Listing the archive… 1,200 files listed');
    fake.emit('campaigns:sync-progress', { campaign: 'Eclipse', phase: 'checking', listed: 1200 });
    await within(eclipse).findByText('Checking 1,200 listed files against the folder…');

    release();
    await within(eclipse).findByText('Downloading: 0 of 12 files on disk, 12 queued.');
    within(eclipse).getByText('12 queued');
    expect(fake.callsTo('campaigns:sync')).toEqual([{ name: 'Eclipse' }]);
    fake.campaigns.arrive('Eclipse', 5);
    await within(eclipse).findByText('Downloading: 5 of 12 files on disk, 7 queued.');
    within(eclipse).getByText('5 on disk');
    fake.campaigns.arrive('Eclipse');
    await within(eclipse).findByText('12 on disk');
    expect(within(eclipse).queryByText(/Downloading:/)).toBeNull();
    expect((within(eclipse).getByRole('button', { name: 'Sync' }) as HTMLButtonElement).disabled).toBe(false);
    within(eclipse).getByText('just now');
    // The sync's summary, in total (the card's counts): what it downloaded, found already there, and failed.
    within(eclipse).getByText('Last sync: 12 downloaded, 0 already there, 0 failed');
  });

  it("lists the last sync's differing and moved files, with a Differs column only when some differ", async () => {
    const counts = {
      listed: 3,
      new: 0,
      onDisk: 1,
      downloaded: 0,
      reused: 0,
      alreadyThere: 1,
      differs: 1,
      queued: 1,
      failed: 0,
      changed: 0,
      missing: 0,
      notSynced: 0,
      noLongerListed: 0,
    };
    const lastSync = {
      campaign: 'Shared',
      at: '2025-03-25T10:00:00.000Z',
      queries: [{ query: KCOR_PB_DAY, ...counts }],
      total: counts,
      duplicates: 0,
      refused: [],
      moved: [
        { filename: 'a.fts', from: 'synoptic/a.fts', to: 'waves/a.fts', movedOnDisk: true },
        { filename: 'b.fts', from: 'synoptic/b.fts', to: 'waves/b.fts', movedOnDisk: false },
      ],
      differing: [{ path: 'waves/c.fts', filename: 'c.fts', expectedSha256: 'a'.repeat(64), sha256: 'b'.repeat(64) }],
    };
    await openCampaigns([{ name: 'Shared', lastSyncAt: lastSync.at, lastSync, files: { onDisk: 1, differs: 1, queued: 1 } }]);
    const shared = card('Shared');
    const table = within(shared).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Query', 'Listed', 'New', 'Downloaded', 'Already there', 'Differs', 'Queued', 'Failed', 'Missing']);
    within(shared).getByText(/1 file differs from the shared file list \(another SHA-256; kept, not counted on disk\): waves\/c\.fts\./);
    within(shared).getByText('2 files moved to a new place in the layout: synoptic/a.fts → waves/a.fts, synoptic/b.fts → waves/b.fts (fetched there).');
  });

  it('asks to sign in first when signed out', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse' }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Sync' }));
    await screen.findByText('Sign in to sync: enter the e-mail address you registered with the observatory.');
    expect(fake.callsTo('campaigns:sync')).toEqual([]);
  });

  it('shows a failed sync with the core’s words', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse' }], { session: SIGNED_IN });
    fake.fail('campaigns:sync', { kind: 'network', message: 'The archive could not be reached; check the connection and press Sync again.' });
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Sync' }));
    await within(card('Eclipse')).findByText('The archive could not be reached; check the connection and press Sync again.');
    within(card('Eclipse')).getByText('Sync failed.');
  });
  it('shows a sync that failed in the core (an automatic one) from its progress event, until dismissed', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse', autoSyncHours: 6 }], { session: SIGNED_IN });
    fake.emit('campaigns:sync-progress', { campaign: 'Eclipse', phase: 'listing', listed: 0 });
    fake.emit('campaigns:sync-progress', { campaign: 'Eclipse', phase: 'failed', listed: 0, message: 'The session expired; sign in again.' });
    const eclipse = card('Eclipse');
    await within(eclipse).findByText('The session expired; sign in again.');
    await fireEvent.click(within(eclipse).getByRole('button', { name: 'Dismiss message' }));
    expect(within(eclipse).queryByText('The session expired; sign in again.')).toBeNull();
  });
});

describe('verify', () => {
  it('lists the missing and changed files with the next step', async () => {
    const { fake } = await openCampaigns([{ name: 'Eclipse', layout: '{instrument}', lastSyncAt: '2025-03-25T10:00:00.000Z', files: { onDisk: 5 } }]);
    fake.campaigns.verifyProblems = [
      { path: 'kcor/20250324_180000_kcor_l2_pb.fts', problem: 'missing' },
      { path: 'kcor/20250324_180001_kcor_l2_pb.fts', problem: 'changed' },
      { path: 'kcor/notes.txt', problem: 'unexpected' },
    ];
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Eclipse')).findByRole('group', { name: 'Verify report' });
    within(report).getByText('Verify found problems');
    within(report).getByText('1 missing');
    within(report).getByText('1 changed on disk');
    within(report).getByText('1 unexpected');
    within(report).getByText('0 failed');
    const files = within(report).getByRole('list', { name: 'Files with problems' });
    expect(
      within(files)
        .getAllByRole('listitem')
        .map((item) => item.textContent?.replace(/\s+/g, ' ').trim()),
    ).toEqual(['missing kcor/20250324_180000_kcor_l2_pb.fts', 'changed kcor/20250324_180001_kcor_l2_pb.fts', 'unexpected kcor/notes.txt']);
    within(report).getByText('Sync fetches the missing and changed files again.');
    // The list is reloaded: the card says what verify found (it said "2 missing" before: one truth, issue 21).
    await waitFor(() => within(within(card('Eclipse')).getByRole('list', { name: 'File counts' })).getByText('1 changed on disk'));
    within(within(card('Eclipse')).getByRole('list', { name: 'File counts' })).getByText('1 missing');
  });

  it('names the files that differ from the shared file list, on the card and in the report', async () => {
    const { fake } = await openCampaigns([{ name: 'Shared', layout: '{instrument}', files: { onDisk: 3, differs: 2 } }]);
    const shared = card('Shared');
    // Kept apart from the files on disk: the bar is not full and the card says why.
    within(shared).getByText('3 on disk');
    within(shared).getByText('2 differ from the shared list');
    fake.campaigns.verifyProblems = [
      { path: 'kcor/20250324_180003_kcor_l2_pb.fts', problem: 'differs' },
      { path: 'kcor/20250324_180004_kcor_l2_pb.fts', problem: 'differs' },
    ];
    await fireEvent.click(within(shared).getByRole('button', { name: 'Verify' }));
    const report = await within(shared).findByRole('group', { name: 'Verify report' });
    within(report).getByText('Verify found problems');
    within(report).getByText('2 differ from the shared list');
    expect(within(report).queryByText(/All good/)).toBeNull();
    within(report).getByText(/another SHA-256 than the shared file list gives/);
    expect(within(report).queryByText(/Sync fetches/)).toBeNull();
  });

  it('names a file sync refuses with its reason, and shows the rarer problems only when there are some', async () => {
    const { fake } = await openCampaigns([{ name: 'Deep', files: { onDisk: 2 } }]);
    fake.campaigns.verifyProblems = [
      { path: 'a/very/long/path.fts', problem: 'refused', reason: 'its path would be 4,200 bytes, more than the system allows (4,095)' },
    ];
    await fireEvent.click(within(card('Deep')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Deep')).findByRole('group', { name: 'Verify report' });
    within(report).getByText('Verify found problems');
    within(report).getByText('1 refused by sync');
    expect(within(report).queryByText(/differs/)).toBeNull();
    const files = within(report).getByRole('list', { name: 'Files with problems' });
    expect(within(files).getByRole('listitem').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'refused a/very/long/path.fts: its path would be 4,200 bytes, more than the system allows (4,095)',
    );
    within(report).getByText(/Sync refuses these files/);
  });

  it('says all is well when every file is as downloaded', async () => {
    await openCampaigns([{ name: 'Eclipse', files: { onDisk: 5 } }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Verify' }));
    const report = await within(card('Eclipse')).findByRole('group', { name: 'Verify report' });
    within(report).getByText(/5 files on disk, each as downloaded/);
    expect(within(report).queryByText(/Sync fetches/)).toBeNull();
    await fireEvent.click(within(report).getByRole('button', { name: 'Close report' }));
    expect(within(card('Eclipse')).queryByRole('group', { name: 'Verify report' })).toBeNull();
  });
});

describe('export', () => {
  function captureDownloads() {
    const blobs: Blob[] = [];
    const saved: { fileName: string; href: string }[] = [];
    // jsdom has no Blob URLs and no navigation: record what the browser would have saved.
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:fake/${blobs.length}`;
    });
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ fileName: this.download, href: this.href });
    });
    return { blobs, saved };
  }

  it('saves the CSV manifest as a download and shows the acknowledgement with Copy', async () => {
    const { blobs, saved } = captureDownloads();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const { fake } = await openCampaigns([{ name: '2024 Eclipse', files: { onDisk: 2 } }]);
    await fireEvent.click(within(card('2024 Eclipse')).getByRole('button', { name: 'Export' }));
    const panel = within(card('2024 Eclipse')).getByRole('group', { name: 'Export 2024 Eclipse' });
    expect((within(panel).getByRole('radio', { name: /CSV manifest/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(panel).getByRole('checkbox', { name: /Include the file list/ }) as HTMLInputElement).disabled).toBe(true);
    await fireEvent.click(within(panel).getByRole('button', { name: 'Save file' }));
    await within(panel).findByText('Exported 2024-eclipse-manifest.csv.');
    expect(saved).toEqual([{ fileName: '2024-eclipse-manifest.csv', href: 'blob:fake/1' }]);
    expect(blobs[0]?.type).toBe('text/csv');
    expect(await blobText(blobs[0]!)).toBe(
      'date-obs,instrument,product,filename\n,kcor,pb,20250324_180000_kcor_l2_pb.fts\n,kcor,pb,20250324_180001_kcor_l2_pb.fts\n',
    );
    expect(fake.callsTo('campaigns:export')).toEqual([{ name: '2024 Eclipse', format: 'csv' }]);

    const acknowledgement = within(panel).getByRole('textbox', { name: 'Acknowledgement for your paper' }) as HTMLTextAreaElement;
    expect(acknowledgement.value).toBe(
      'This work uses data from the Mauna Loa Solar Observatory: COSMO K-Coronagraph (KCor) (https://doi.org/10.5065/D69G5JV8).',
    );
    await fireEvent.click(within(panel).getByRole('button', { name: 'Copy' }));
    await within(panel).findByText('Copied.');
    expect(writeText).toHaveBeenCalledWith(acknowledgement.value);
  });

  it('saves the campaign file with its file list when asked', async () => {
    const { blobs, saved } = captureDownloads();
    const { fake } = await openCampaigns([{ name: 'Eclipse', layout: '{yyyy}', files: { onDisk: 1 } }]);
    await fireEvent.click(within(card('Eclipse')).getByRole('button', { name: 'Export' }));
    const panel = within(card('Eclipse')).getByRole('group', { name: 'Export Eclipse' });
    await fireEvent.click(within(panel).getByRole('radio', { name: /Campaign file/ }));
    await fireEvent.click(within(panel).getByRole('checkbox', { name: /Include the file list/ }));
    await fireEvent.click(within(panel).getByRole('button', { name: 'Save file' }));
    await within(panel).findByText('Exported eclipse.campaign.json.');
    expect(fake.callsTo('campaigns:export')).toEqual([{ name: 'Eclipse', format: 'campaign', includeFiles: true }]);
    expect(saved.map((entry) => entry.fileName)).toEqual(['eclipse.campaign.json']);
    expect(JSON.parse(await blobText(blobs[0]!))).toEqual({
      name: 'Eclipse',
      layout: '{yyyy}',
      queries: [KCOR_PB_DAY],
      files: ['20250324_180000_kcor_l2_pb.fts'],
    });
  });
});

describe('import', () => {
  /** A File whose text() works (jsdom's File has none). */
  function campaignFile(text: string): File {
    return Object.assign(new File([text], 'eclipse.campaign.json', { type: 'application/json' }), { text: () => Promise.resolve(text) });
  }

  it('reads the chosen file as text and imports it into the folder given', async () => {
    const { fake } = await openCampaigns();
    await fireEvent.click(screen.getByRole('button', { name: 'Import campaign' }));
    const input = screen.getByLabelText('Campaign file') as HTMLInputElement;
    expect(input.accept).toBe('.json,application/json');
    const text = JSON.stringify({ name: 'Shared eclipse', layout: '{instrument}', queries: [KCOR_PB_DAY] });
    await fireEvent.change(input, { target: { files: [campaignFile(text)] } });
    await type(textbox('Folder'), '/data/eclipse');
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByRole('listitem', { name: 'Shared eclipse' });
    expect(fake.callsTo('campaigns:import')).toEqual([{ text, folder: '/data/eclipse' }]);
    screen.getByText('Imported the campaign "Shared eclipse" into /data/eclipse. Press Sync to fetch its files.');
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });

  it("shows the core's refusal of a file that is no campaign file", async () => {
    await openCampaigns();
    await fireEvent.click(screen.getByRole('button', { name: 'Import campaign' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('Choose the campaign file (.json) to import.');
    await fireEvent.change(screen.getByLabelText('Campaign file'), { target: { files: [campaignFile('not json')] } });
    await fireEvent.click(screen.getByRole('button', { name: 'Import' }));
    await screen.findByText('This file is not a campaign file (it is not JSON); export one with Export, Campaign file.');
    screen.getByText('Not imported.');
  });
});

describe('sync cancelled, folder chosen', () => {
  it('cancels a sync still listing: progress ends and no failure is shown', async () => {
    const fake = new FakeContract({ session: SIGNED_IN, listingSize: 12 });
    let release!: () => void;
    fake.campaigns.syncGate = new Promise((resolve) => (release = resolve));
    fake.campaigns.seed({ name: 'Eclipse', files: {} });
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    const eclipse = card('Eclipse');
    await fireEvent.click(within(eclipse).getByRole('button', { name: 'Sync' }));
    await within(eclipse).findByText('Listing the archive…');
    await fireEvent.click(within(eclipse).getByRole('button', { name: 'Cancel sync' }));
    expect(fake.callsTo('campaigns:cancel-sync')).toEqual([{ name: 'Eclipse' }]);
    release();
    await waitFor(() => expect(within(eclipse).queryByText(/Listing the archive/)).toBeNull());
    expect(within(eclipse).queryByText('Sync failed.')).toBeNull();
    expect((within(eclipse).getByRole('button', { name: 'Sync' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers the native folder picker in the desktop app, without touching the download folder setting', async () => {
    const { fake } = await openCampaigns([], { appInfo: { canUseNativeDialogs: true } });
    await fireEvent.click(screen.getByRole('button', { name: 'New campaign' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Choose…' }));
    await waitFor(() => expect(textbox('Folder').value).toBe('/home/ada/chosen'));
    expect(fake.callsTo('shell:choose-folder')).toHaveLength(1);
    expect(fake.callsTo('settings:choose-folder')).toHaveLength(0);
  });
});

describe('coverage', () => {
  it("shows the campaign's files on a timeline coloured by state, on demand", async () => {
    const fake = new FakeContract({ session: SIGNED_IN });
    fake.campaigns.seed({ name: 'Eclipse', files: { onDisk: 1, failed: 1, missing: 1 } });
    const view = (dateObs: string, state: 'done' | 'failed' | null) => ({
      relativePath: dateObs,
      filename: `${dateObs}.fts`,
      instrument: 'kcor',
      product: 'pb',
      dateObs,
      state,
      standing: state === 'done' ? ('onDisk' as const) : state === 'failed' ? ('failed' as const) : ('missing' as const),
      jobId: null,
    });
    fake.handle('campaigns:files', () => [view('2025-03-20T18:00:00', 'done'), view('2025-03-21T18:00:00', 'failed'), view('2025-03-24T18:00:00', null)]);
    await renderApp(fake);
    await fireEvent.click(screen.getByRole('button', { name: 'Campaigns' }));
    const eclipse = card('Eclipse');
    expect(fake.callsTo('campaigns:files')).toHaveLength(0);
    await fireEvent.click(within(eclipse).getByText('Coverage'));
    await waitFor(() => expect(fake.callsTo('campaigns:files')).toEqual([{ name: 'Eclipse' }]));
    const timeline = await within(eclipse).findByRole('slider', { name: 'Coverage timeline' });
    expect(timeline.getAttribute('aria-valuetext') ?? timeline.textContent).toBeTruthy();
    const legend = within(eclipse).getByRole('list', { name: 'States' });
    for (const state of ['on disk', 'failed', 'missing']) within(legend).getByText(new RegExp(state));
  });
});
