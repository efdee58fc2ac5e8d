// A campaign's manifest byte for byte: the CSV's header and rows, the JSON's keys in order, for a KCor file on disk
// and UCoMP files with and without a wave region and observing plan.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manifestCsv, manifestJson, manifestRows } from '../../../src-main/core/campaigns/campaign-manifest';
import type { CampaignFileState, StoredCampaign } from '../../../src-main/core/campaigns/campaign-store';

const file = (overrides: Partial<CampaignFileState>): CampaignFileState => ({
  relativePath: 'kcor/20250324_210304_kcor_l2_pb.fts',
  targetPath: '/data/season/kcor/20250324_210304_kcor_l2_pb.fts',
  filename: '20250324_210304_kcor_l2_pb.fts',
  url: 'https://api.example.org/v1/download?filename=20250324_210304_kcor_l2_pb.fts.gz',
  instrument: 'kcor',
  product: 'pb',
  dateObs: '2025-03-24T21:03:04',
  waveRegion: null,
  obsPlan: null,
  filesize: 2_582_027,
  expectedSha256: null,
  firstSeenAt: '2025-04-01T10:00:00.000Z',
  jobId: 1,
  state: 'done',
  sha256: 'ab'.repeat(32),
  bytesWritten: 6_000_000,
  startedAt: '2025-04-01T10:04:00.000Z',
  finishedAt: '2025-04-01T10:05:00.000Z',
  lastError: null,
  lastErrorKind: null,
  writtenMtimeMs: null,
  checkedMtimeMs: null,
  reusedFrom: null,
  noLongerListed: false,
  ...overrides,
});

const FILES = [
  file({}),
  file({
    filename: '20250324.200652.ucomp.789.l2.fts',
    relativePath: 'ucomp/20250324.200652.ucomp.789.l2.fts',
    targetPath: '/data/season/ucomp/20250324.200652.ucomp.789.l2.fts',
    url: 'https://api.example.org/v1/download?filename=20250324.200652.ucomp.789.l2.fts',
    instrument: 'ucomp',
    product: 'l2',
    dateObs: '2025-03-24T20:06:52',
    waveRegion: '789',
    obsPlan: 'synoptic, "original" lines',
    state: 'queued',
  }),
  file({ filename: 'shared.fts', relativePath: 'shared.fts', targetPath: '/data/season/shared.fts', dateObs: null, obsPlan: '=1+2', state: null, jobId: null }),
];

const CAMPAIGN = {
  id: 1,
  name: 'Season',
  folder: '/data/season',
  layout: '{instrument}',
  queries: [{ instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24' } }],
  autoSyncHours: null,
  createdAt: '2025-04-01T09:00:00.000Z',
  lastSyncAt: null,
  lastSync: null,
} as StoredCampaign;

afterEach(() => {
  vi.useRealTimers();
});

describe('the manifest, exactly', () => {
  it('writes the CSV', () => {
    // Lines end in CRLF, as RFC 4180 asks.
    expect(manifestCsv(manifestRows(FILES)).split('\r\n')).toEqual([
      'date_obs,instrument,product,filename,wave_region,obs_plan,url,local_path,size_on_disk,sha256,downloaded_at',
      '2025-03-24T21:03:04,kcor,pb,20250324_210304_kcor_l2_pb.fts,,,https://api.example.org/v1/download?filename=20250324_210304_kcor_l2_pb.fts.gz,/data/season/kcor/20250324_210304_kcor_l2_pb.fts,6000000,abababababababababababababababababababababababababababababababab,2025-04-01T10:05:00.000Z',
      '2025-03-24T20:06:52,ucomp,l2,20250324.200652.ucomp.789.l2.fts,789,"synoptic, ""original"" lines",https://api.example.org/v1/download?filename=20250324.200652.ucomp.789.l2.fts,/data/season/ucomp/20250324.200652.ucomp.789.l2.fts,,,',
      `,kcor,pb,shared.fts,,'=1+2,https://api.example.org/v1/download?filename=20250324_210304_kcor_l2_pb.fts.gz,/data/season/shared.fts,,,`,
      '',
    ]);
  });

  it('writes the JSON', () => {
    vi.useFakeTimers({ now: Date.parse('2025-04-02T12:00:00Z') });
    expect(manifestJson(CAMPAIGN, manifestRows(FILES), 'Thanks.\n')).toMatchInlineSnapshot(`
      "{
        "campaign": "Season",
        "folder": "/data/season",
        "layout": "{instrument}",
        "queries": [
          {
            "instrument": "kcor",
            "product": "pb",
            "filters": {
              "start-date": "2025-03-24"
            }
          }
        ],
        "exportedAt": "2025-04-02T12:00:00.000Z",
        "acknowledgement": "Thanks.\\n",
        "files": [
          {
            "date_obs": "2025-03-24T21:03:04",
            "instrument": "kcor",
            "product": "pb",
            "filename": "20250324_210304_kcor_l2_pb.fts",
            "wave_region": null,
            "obs_plan": null,
            "url": "https://api.example.org/v1/download?filename=20250324_210304_kcor_l2_pb.fts.gz",
            "local_path": "/data/season/kcor/20250324_210304_kcor_l2_pb.fts",
            "size_on_disk": 6000000,
            "sha256": "abababababababababababababababababababababababababababababababab",
            "downloaded_at": "2025-04-01T10:05:00.000Z"
          },
          {
            "date_obs": "2025-03-24T20:06:52",
            "instrument": "ucomp",
            "product": "l2",
            "filename": "20250324.200652.ucomp.789.l2.fts",
            "wave_region": "789",
            "obs_plan": "synoptic, \\"original\\" lines",
            "url": "https://api.example.org/v1/download?filename=20250324.200652.ucomp.789.l2.fts",
            "local_path": "/data/season/ucomp/20250324.200652.ucomp.789.l2.fts",
            "size_on_disk": null,
            "sha256": null,
            "downloaded_at": null
          },
          {
            "date_obs": null,
            "instrument": "kcor",
            "product": "pb",
            "filename": "shared.fts",
            "wave_region": null,
            "obs_plan": "=1+2",
            "url": "https://api.example.org/v1/download?filename=20250324_210304_kcor_l2_pb.fts.gz",
            "local_path": "/data/season/shared.fts",
            "size_on_disk": null,
            "sha256": null,
            "downloaded_at": null
          }
        ]
      }
      "
    `);
  });
});
