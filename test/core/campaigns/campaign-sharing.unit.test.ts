// Sharing campaigns without a server: names that are the same name by one rule, shared files taken in whole or not
// at all (streamed, with a size cap, a BOM accepted, auto-sync left for the user to turn on), and a CSV manifest
// that a spreadsheet cannot run as formulas.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MlsoClient } from '../../../src-main/core/api/mlso-client';
import { CampaignBackups, restoreCampaigns } from '../../../src-main/core/campaigns/campaign-backups';
import { MAX_CAMPAIGN_FILE_BYTES } from '../../../src-main/core/campaigns/campaign-file';
import { manifestCsv, manifestJson, manifestRows, type ManifestRow } from '../../../src-main/core/campaigns/campaign-manifest';
import { CampaignService } from '../../../src-main/core/campaigns/campaign-service';
import { CampaignStore } from '../../../src-main/core/campaigns/campaign-store';
import type { DownloadLedger } from '../../../src-main/core/downloads/download-ledger';
import { temporaryFolder } from '../../helpers/fixtures';
import { oldLedger } from '../state/old-ledgers';
import { openStateFile } from '../state/state-file';
import { KCOR_DAY } from './campaign-harness';

/** Only what importing and exporting ask of a client: no instrument is described. */
const OFFLINE_CLIENT = { instruments: async () => [] } as unknown as MlsoClient;

const ledgers: DownloadLedger[] = [];
afterEach(() => {
  for (const ledger of ledgers.splice(0)) ledger.close();
});

function service(): CampaignService {
  const { ledger, state } = openStateFile(':memory:');
  ledgers.push(ledger);
  return new CampaignService({ ledger, state, client: OFFLINE_CLIENT });
}

const FOLDER = path.resolve('/data/campaigns');

function sharedEntry(index: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const filename = `20250324_${String(index).padStart(6, '0')}_kcor_l2_pb.fts.gz`;
  return {
    path: filename,
    filename,
    url: `https://api.example.org/download/kcor/${filename}`,
    instrument: 'kcor',
    product: 'pb',
    'date-obs': '2025-03-24T21:03:04',
    filesize: 1000 + index,
    sha256: 'ab'.repeat(32),
    ...extra,
  };
}

function sharedFile(members: Record<string, unknown> = {}, files: unknown[] = [sharedEntry(1), sharedEntry(2)]): string {
  return JSON.stringify(
    { format: 'mlso-downloader-campaign', version: 1, name: 'season', layout: '', autoSyncHours: null, queries: [KCOR_DAY], ...members, files },
    null,
    2,
  );
}

const importOf = (s: CampaignService, text: string, name?: string) =>
  s.importFile(text, { folder: path.join(FOLDER, name ?? 'season'), defaultParent: FOLDER, ...(name ? { name } : {}) });

describe('campaign names, one rule everywhere', () => {
  it('refuses a second campaign whose name differs only by case beyond ASCII, by accents composed differently, or by invisible characters', () => {
    const s = service();
    importOf(s, sharedFile({ name: 'Été' }));
    for (const other of ['été', 'ÉTÉ', 'E\u0301te\u0301', 'Été\u200b']) {
      expect(() => importOf(s, sharedFile({ name: other }), undefined), other).toThrow('A campaign called "Été" already exists: choose another name.');
    }
    expect(s.store.list().map((campaign) => campaign.name)).toEqual(['Été']);
    expect(s.store.find('ÉTÉ')?.name).toBe('Été');
    expect(s.store.find('e\u0301te\u0301')?.name).toBe('Été');
  });

  it('renames a campaign to another case of its own name, but not to the name of another', () => {
    const s = service();
    importOf(s, sharedFile({ name: 'Été' }));
    importOf(s, sharedFile({ name: 'Hiver' }), 'Hiver');
    expect(s.store.update(s.store.require('été').id, { name: 'ÉTÉ' }).name).toBe('ÉTÉ');
    expect(() => s.store.update(s.store.require('hiver').id, { name: 'été' })).toThrow('A campaign called "ÉTÉ" already exists');
  });

  it('brings an older ledger up to date: two names the same by the new rule stay two campaigns, the later one renamed', async () => {
    const file = path.join(await temporaryFolder(), 'ledger.sqlite');
    const old = oldLedger(file, 2);
    const insert = old.prepare("INSERT INTO campaigns (name, folder, layout, created_at) VALUES (?, ?, '', '2025-01-01T00:00:00Z')");
    for (const name of ['Été', 'été', 'été (2)', 'Hiver']) insert.run(name, `/data/${name}`);
    old.close();

    const { ledger, state } = openStateFile(file);
    ledgers.push(ledger);
    const store = new CampaignStore(state);
    expect(store.list().map(({ name, folder }) => [name, folder])).toEqual([
      ['Hiver', '/data/Hiver'],
      ['Été', '/data/Été'],
      ['été (2)', '/data/été (2)'],
      ['été (3)', '/data/été'],
    ]);
    expect(store.find('ÉTÉ')?.folder).toBe('/data/Été');
    expect(() => store.create({ name: 'ÉTÉ (3)', folder: '/x', layout: '', queries: [KCOR_DAY], autoSyncHours: null })).toThrow('already exists');
  });

  it('keeps both of two copies whose names are now the same name when a new ledger takes the copies back', async () => {
    const backups = new CampaignBackups(await temporaryFolder());
    const copy = { id: 1, folder: '/data/a', layout: '', queries: [KCOR_DAY], autoSyncHours: null, createdAt: 'x', lastSyncAt: null, lastSync: null };
    backups.save({ ...copy, name: 'Été' });
    backups.save({ ...copy, name: 'été', folder: '/data/b' });
    const { ledger, state } = openStateFile(':memory:');
    ledgers.push(ledger);
    const store = new CampaignStore(state);
    const restore = restoreCampaigns(state, backups);
    expect(restore.unreadable).toEqual([]);
    expect(
      store
        .list()
        .map((campaign) => campaign.folder)
        .sort(),
    ).toEqual(['/data/a', '/data/b']);
  });
});

describe('importing a shared campaign file', () => {
  it('never carries auto-sync over: the user turns it on', () => {
    const s = service();
    const { campaign } = importOf(s, sharedFile({ autoSyncHours: 1 }));
    expect(campaign.autoSyncHours).toBeNull();
    expect(s.store.require('season').autoSyncHours).toBeNull();
  });

  it('accepts a file that starts with a UTF-8 byte order mark', () => {
    const s = service();
    const { campaign } = importOf(s, `\ufeff${sharedFile()}`);
    expect(s.overview(campaign).counts.files).toBe(2);
  });

  it('reads a file list only after the name, layout and queries (as exported), and takes a file with no file list', () => {
    const s = service();
    const filesFirst = `{"files": ${JSON.stringify([sharedEntry(1)])}, ${sharedFile({}, []).slice(1).replace('"files": []', '"extra": 1')}`;
    expect(() => importOf(s, filesFirst)).toThrow(
      'That campaign file lists its files before its "format", "version", "name", "layout", "queries": this version reads them first, in the order `campaign export` writes them.',
    );
    const bare = JSON.stringify({ format: 'mlso-downloader-campaign', version: 1, name: 'bare', layout: '', queries: [KCOR_DAY] });
    expect(s.overview(importOf(s, bare, 'bare').campaign).counts.files).toBe(0);
  });

  it('takes in nothing when any entry is wrong, naming where', () => {
    const s = service();
    const files = [sharedEntry(1), sharedEntry(2), sharedEntry(3, { sha256: 'not a hash' })];
    expect(() => importOf(s, sharedFile({}, files))).toThrow(/^That is not a campaign file this version can read \(.* at files\.2\.sha256\)\.$/);
    expect(() => importOf(s, sharedFile().slice(0, -20))).toThrow(/is cut short|is not JSON/);
    expect(s.store.list()).toEqual([]);
    expect(s.overview(importOf(s, sharedFile()).campaign).counts.files).toBe(2);
  });

  it('refuses an entry far longer than any real one, and a file listing its files twice', () => {
    const s = service();
    expect(() => importOf(s, sharedFile({}, [sharedEntry(1, { padding: 'x'.repeat(100_000) })]))).toThrow('files[0] is longer than 64 KB');
    const twice = sharedFile().replace(/\n}$/, `,\n"files": []\n}`);
    expect(() => importOf(s, twice)).toThrow('it holds "files" twice');
    expect(s.store.list()).toEqual([]);
  });

  it('says in one plain sentence what is wrong with a file that is not a campaign file', () => {
    const s = service();
    const cases: [string, RegExp][] = [
      ['', /^That is not a campaign file: it is not JSON\./],
      ['[]', /^That is not a campaign file this version can read \(it is not a JSON object\)\.$/],
      ['{"format": "mlso-downloader-campaign", "version": 1', /^That campaign file is cut short: export it again and copy it whole\.$/],
      [`${sharedFile()} trailing`, /^That is not a campaign file: it is not JSON\./],
      [sharedFile({}, [1]), /^That is not a campaign file this version can read \(.* at files\.0\)\.$/],
      [
        sharedFile({ layout: 'x'.repeat(5 * 1024 * 1024) }),
        /^That is not a campaign file this version can read \(it holds more than 4 MB besides its file list\)\.$/,
      ],
      [sharedFile({ version: 2 }), /^That is not a campaign file this version can read \(.* at version\)\.$/],
    ];
    for (const [text, message] of cases) expect(() => importOf(s, text), text.slice(0, 60)).toThrow(message);
    expect(s.store.list()).toEqual([]);
  });

  it('refuses a file over the size cap, saying the cap', () => {
    const s = service();
    expect(MAX_CAMPAIGN_FILE_BYTES).toBe(1024 ** 3);
    expect(() => s.importFile(sharedFile(), { folder: FOLDER, defaultParent: FOLDER, maxBytes: 1000 })).toThrow(
      /^The campaign file is larger than 1000 bytes, the most this version takes in/,
    );
    expect(s.store.list()).toEqual([]);
  });
});

describe('the CSV manifest in a spreadsheet', () => {
  const row = (overrides: Partial<ManifestRow>): ManifestRow => ({
    date_obs: '2025-03-24T21:03:04',
    instrument: 'kcor',
    product: 'pb',
    filename: 'a.fts',
    wave_region: null,
    obs_plan: null,
    url: 'https://api.example.org/a.fts',
    local_path: '/data/a.fts',
    size_on_disk: 12,
    sha256: null,
    downloaded_at: null,
    ...overrides,
  });

  it("puts a ' before text that a spreadsheet would take for a formula, and leaves numbers alone", () => {
    const rows = [
      row({ filename: '=1+2.fts', obs_plan: '=HYPERLINK("https://evil.example","click")' }),
      row({ filename: "+cmd|' /C calc'!A0", obs_plan: '@SUM(A1:A9)' }),
      row({ filename: '-2+3.fts', obs_plan: '\tx', wave_region: '\rx' }),
      row({ wave_region: '-1.5', obs_plan: '+3', size_on_disk: 0 }),
    ];
    const lines = manifestCsv(rows).split('\r\n');
    expect(lines[1]).toBe(
      `2025-03-24T21:03:04,kcor,pb,'=1+2.fts,,"'=HYPERLINK(""https://evil.example"",""click"")",https://api.example.org/a.fts,/data/a.fts,12,,`,
    );
    expect(lines[2]).toBe(`2025-03-24T21:03:04,kcor,pb,'+cmd|' /C calc'!A0,,'@SUM(A1:A9),https://api.example.org/a.fts,/data/a.fts,12,,`);
    expect(lines[3]).toBe(`2025-03-24T21:03:04,kcor,pb,'-2+3.fts,"'\rx",'\tx,https://api.example.org/a.fts,/data/a.fts,12,,`);
    expect(lines[4]).toBe('2025-03-24T21:03:04,kcor,pb,a.fts,-1.5,+3,https://api.example.org/a.fts,/data/a.fts,0,,');
  });

  it('keeps the exact strings in the JSON manifest', () => {
    const s = service();
    const { campaign } = importOf(s, sharedFile({}, [sharedEntry(1, { filename: '=1+2.fts', path: '=1+2.fts', 'obs-plan': '=HYPERLINK("x")' })]));
    const json = JSON.parse(manifestJson(campaign, manifestRows(s.store.files(campaign.id)), '')) as { files: ManifestRow[] };
    expect(json.files[0]).toMatchObject({ filename: '=1+2.fts', obs_plan: '=HYPERLINK("x")' });
  });
});
