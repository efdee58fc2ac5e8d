// The fake app behind the preview screenshots: a RawBridge on window.mlsoBridge backed by the tests'
// FakeContract, with a 100,000-file listing and a busy queue. Bundled into the page by preview.mjs.
import { BRIDGE_GLOBAL } from '../../../src-shared/contract/contract';
import type { JobView } from '../../../src-shared/downloads/progress-types';
import { FakeContract, makeJob, rawBridgeOf } from '../fake-contract';

interface PreviewScenario {
  signedIn?: boolean;
  demo?: boolean;
  queuePaused?: boolean;
  /** Campaigns in the states their counts tell apart: files still queued, files reused, a file no longer listed. */
  campaigns?: boolean;
}

const host = window as unknown as Record<string, unknown>;
const scenario = (host.__mlsoPreview ?? {}) as PreviewScenario;

function kcorName(index: number): string {
  const seconds = 18 * 3600 + index * 15;
  const hh = String(Math.floor(seconds / 3600) % 24).padStart(2, '0');
  const mm = String(Math.floor(seconds / 60) % 60).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `20250324_${hh}${mm}${ss}_kcor_l2_pb.fts`;
}

/** 2,400 jobs: most finished, a few moving, failed, paused, the rest waiting. */
function busyQueue(): JobView[] {
  const jobs: JobView[] = [];
  for (let i = 0; i < 2400; i++) {
    const id = i + 1;
    const name = kcorName(i);
    // Two copied from another folder rather than downloaded, in view of the Downloads shot.
    if (i === 609 || i === 610) jobs.push(makeJob(id, name, 'done', { bytesReceived: 0, reusedFrom: '/home/ada/data/mlso/kcor-2025-02' }));
    else if (i < 612) jobs.push(makeJob(id, name, 'done'));
    else if (i < 616) jobs.push(makeJob(id, name, 'active', { bytesReceived: 400_000 + (i - 612) * 520_000, speed: 1_800_000 + (i % 3) * 350_000 }));
    else if (i === 616)
      jobs.push(makeJob(id, name, 'failed', { attempts: 4, lastError: 'The server closed the connection before the file was complete (1.2 MB of 2.5 MB).' }));
    else if (i === 617) jobs.push(makeJob(id, name, 'failed', { attempts: 4, lastError: 'The download was not a FITS file (the server sent an HTML page).' }));
    else if (i === 618) jobs.push(makeJob(id, name, 'paused', { bytesReceived: 1_100_000 }));
    else if (i === 619)
      jobs.push(makeJob(id, name, 'queued', { attempts: 1, nextAttemptAt: Date.UTC(2025, 2, 24, 21, 4, 30), lastError: 'HTTP 503 Service Unavailable' }));
    else jobs.push(makeJob(id, name, 'queued'));
  }
  // The finished ones first in the list order, as the engine keeps them until cleared.
  return jobs;
}

const fake = new FakeContract({
  listingSize: 100_000,
  zeroEvery: 37,
  jobs: busyQueue(),
  session: scenario.signedIn ? { signedIn: true, email: 'ada.lovelace@example.org', expiresAt: null } : undefined,
  appInfo: scenario.demo ? { serverKind: 'demo', serverUrl: 'http://127.0.0.1:5199' } : {},
  settings: { downloadFolder: '/home/ada/data/mlso/kcor-2025-03', lastEmail: scenario.signedIn ? 'ada.lovelace@example.org' : '' },
  freeSpace: 412.7 * 1024 ** 3,
});
fake.queuePaused = scenario.queuePaused ?? false;
if (scenario.campaigns) {
  const at = '2025-03-25T10:00:00.000Z';
  fake.campaigns.seed({ name: 'Eclipse watch', layout: '{instrument}/{yyyy}/{mm}/{dd}', lastSyncAt: at, files: { onDisk: 4, queued: 5 } });
  const reused = { listed: 12, new: 12, onDisk: 12, downloaded: 0, reused: 12, alreadyThere: 0, differs: 0, queued: 0, failed: 0, changed: 0 };
  const counts = { ...reused, missing: 0, notSynced: 0, noLongerListed: 0 };
  fake.campaigns.seed({
    name: 'Mirror of February',
    lastSyncAt: at,
    files: { reused: 12 },
    lastSync: {
      campaign: 'Mirror of February',
      at,
      queries: [{ query: { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-02-01', 'end-date': '2025-02-28' } }, ...counts }],
      total: counts,
      duplicates: 0,
      refused: [],
      moved: [],
      differing: [],
      reused: { count: 12, from: ['/home/ada/data/mlso/kcor-2025-02'] },
    },
  });
  fake.campaigns.seed({ name: 'Reprocessed week', lastSyncAt: at, files: { onDisk: 8, noLongerListed: 1 } });
}

host[BRIDGE_GLOBAL] = rawBridgeOf(fake);
// Lets the screenshot script send engine events (e.g. the queue stopping for a full disk).
host.__mlsoPreviewEmit = (event: Parameters<FakeContract['emit']>[0], payload: never) => fake.emit(event, payload);
