// The stores' requests against the fake contract, without a window: which answer wins, when an error shows and
// goes, and what the loading flags say meanwhile.
import { describe, expect, it } from 'vitest';
import { apiClientFrom } from '../../src-renderer/lib/api';
import type { ApiClient } from '../../src-renderer/lib/api';
import { CampaignListStore } from '../../src-renderer/campaigns/campaign-list.svelte';
import { CatalogStore } from '../../src-renderer/browse/catalog.svelte';
import { DownloadsStore } from '../../src-renderer/downloads/downloads.svelte';
import { ResultsStore } from '../../src-renderer/browse/results.svelte';
import { SessionStore } from '../../src-renderer/lib/session.svelte';
import type { InvokeChannel } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';
import { DEMO_EMAIL, FakeContract, FakeFailure, makeJob, METADATA } from './fake-contract';

const UNREACHABLE: ErrorData = { kind: 'network', message: 'Cannot reach the service; check your network, then try again.' };

const KCOR_DAY = { instrument: 'kcor', product: 'pb', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-25' } };
const UCOMP_DAY = { instrument: 'ucomp', product: 'l2', filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-25' } };

describe('the results store', () => {
  it('shows the newest search even when an older one answers after it', async () => {
    const fake = new FakeContract({ listingSize: 3 });
    const results = new ResultsStore(apiClientFrom(fake));
    let releaseKcor: () => void = () => {};
    const kcorHeld = new Promise<void>((resolve) => (releaseKcor = resolve));
    const started = new Map<string, string>();
    fake.handle('search:start', async (query) => {
      if (query.instrument === 'kcor') await kcorHeld;
      const progress = fake.keepSearch(query);
      started.set(query.instrument, progress.searchId);
      return progress;
    });
    const older = results.search(KCOR_DAY);
    await results.search(UCOMP_DAY);
    releaseKcor();
    await older;
    expect(results.kept?.searchId).toBe(started.get('ucomp'));
    expect(results.query).toEqual(UCOMP_DAY);
    expect(results.searching).toBe(false);
  });

  it('stops waiting when cancelled, keeping the listing it showed', async () => {
    const fake = new FakeContract({ listingSize: 3 });
    const results = new ResultsStore(apiClientFrom(fake));
    await results.search(KCOR_DAY);
    const shown = results.kept;
    const release = fake.hold('search:start');
    const waiting = results.search(UCOMP_DAY);
    expect(results.searching).toBe(true);
    results.cancelSearch();
    expect(results.searching).toBe(false);
    release();
    await waiting;
    expect(results.kept).toBe(shown);
  });

  it("keeps the listing's query when a search for another one fails (Save as campaign must not save the failed one)", async () => {
    const fake = new FakeContract({ listingSize: 3 });
    const results = new ResultsStore(apiClientFrom(fake));
    await results.search(KCOR_DAY);
    fake.fail('search:start', UNREACHABLE);
    await results.search(UCOMP_DAY);
    expect(results.kept?.searchId).toBe('search-1');
    expect(results.query).toEqual(KCOR_DAY);
  });

  it('puts a failed search away when the next one starts, and clear() forgets it', async () => {
    const fake = new FakeContract({ listingSize: 3 });
    const results = new ResultsStore(apiClientFrom(fake));
    fake.fail('search:start', UNREACHABLE);
    await results.search(KCOR_DAY);
    expect(results.error).toEqual(UNREACHABLE);
    const release = fake.hold('search:start');
    const next = results.search(KCOR_DAY);
    expect(results.error).toBeNull();
    release();
    await next;
    fake.fail('search:start', UNREACHABLE);
    await results.search(KCOR_DAY);
    results.clear();
    expect(results.error).toBeNull();
    expect(results.kept).toBeNull();
  });

  it('says how many files are being queued until the queue answers', async () => {
    const fake = new FakeContract({ listingSize: 4 });
    const results = new ResultsStore(apiClientFrom(fake));
    await results.search(KCOR_DAY);
    const queuing = results.enqueue('all');
    expect(results.enqueueing).toBe(4);
    const outcome = await queuing;
    expect(results.enqueueing).toBe(0);
    expect(outcome).toMatchObject({ requested: 4, summary: { queued: 4 } });
    expect(results.enqueueOutcome).toBe(outcome);
  });
});

describe('the catalogue store', () => {
  it('drops the products of an instrument left while they loaded, even for one whose products were known', async () => {
    const fake = new FakeContract();
    const catalog = new CatalogStore(apiClientFrom(fake));
    await catalog.chooseInstrument('kcor');
    const release = fake.hold('catalog:products');
    const ucomp = catalog.chooseInstrument('ucomp');
    expect(catalog.productsLoading).toBe(true);
    // KCor's products are cached: no request, and UCoMP's answer is no longer wanted.
    await catalog.chooseInstrument('kcor');
    expect(catalog.productsLoading).toBe(false);
    release();
    await ucomp;
    expect(catalog.instrumentId).toBe('kcor');
    expect(catalog.products.map((product) => product.id)).toEqual(METADATA.kcor!.map((product) => product.id));
    expect(catalog.productId).toBe('pb');
  });
});

describe('the session store', () => {
  it('refuses an empty e-mail without asking, shows a refused sign-in, and a good one puts it away', async () => {
    const fake = new FakeContract();
    const session = new SessionStore(apiClientFrom(fake));
    await session.signIn();
    expect(session.error?.kind).toBe('invalid-input');
    expect(fake.callsTo('session:sign-in')).toEqual([]);
    session.email = 'nobody@example.org';
    await session.signIn();
    expect(session.error?.kind).toBe('unknown-user');
    session.email = DEMO_EMAIL;
    const signingIn = session.signIn();
    expect(session.busy).toBe(true);
    expect(session.error).toBeNull();
    await signingIn;
    expect(session.busy).toBe(false);
    expect(session.signedIn).toBe(true);
  });

  it('shows why the session could not be read at start-up until dismissed', async () => {
    const fake = new FakeContract();
    const session = new SessionStore(apiClientFrom(fake));
    fake.fail('session:get', UNREACHABLE);
    await session.load();
    expect(session.error).toEqual(UNREACHABLE);
    expect(session.busy).toBe(false);
    session.dismissMessages();
    expect(session.error).toBeNull();
  });
});

describe('the downloads store', () => {
  it('shows a failed control until the next control succeeds', async () => {
    const fake = new FakeContract({ jobs: [makeJob(1, 'a.fts', 'active'), makeJob(2, 'b.fts', 'queued')] });
    const downloads = new DownloadsStore(apiClientFrom(fake));
    await downloads.refresh();
    fake.handle('downloads:pause', () => {
      throw new FakeFailure({ kind: 'internal', message: 'The download ledger is locked by another instance.' });
    });
    await downloads.runJob('downloads:pause', 1);
    expect(downloads.error?.message).toBe('The download ledger is locked by another instance.');
    await downloads.runJob('downloads:cancel', 2);
    expect(downloads.error).toBeNull();
  });

  it('reloads the order after a move to the front, and the list after clearing finished files', async () => {
    const fake = new FakeContract({ jobs: [makeJob(1, 'a.fts', 'done'), makeJob(2, 'b.fts', 'queued')] });
    const downloads = new DownloadsStore(apiClientFrom(fake));
    await downloads.refresh();
    await downloads.runQueue('downloads:clear-finished');
    expect(downloads.note).toBe('Cleared 1 finished file from the list.');
    expect([downloads.rowCount, downloads.rowAt(0)?.id]).toEqual([1, 2]);
    expect(fake.callsTo('downloads:page')).toHaveLength(2);
  });
});

/** A store's reload of what it shows, seen from outside: asking again, its error, and its loading flag if it has one. */
interface Reload {
  what: string;
  channel: InvokeChannel;
  start: (client: ApiClient) => { load: () => Promise<void>; error: () => ErrorData | null; loading?: () => boolean };
}

const RELOADS: Reload[] = [
  {
    what: 'the instruments',
    channel: 'catalog:instruments',
    start: (client) => {
      const catalog = new CatalogStore(client);
      return { load: () => catalog.loadInstruments(), error: () => catalog.error, loading: () => catalog.instrumentsLoading };
    },
  },
  {
    what: 'the download queue',
    channel: 'downloads:page',
    start: (client) => {
      const downloads = new DownloadsStore(client);
      return { load: () => downloads.refresh(), error: () => downloads.error, loading: () => downloads.loading };
    },
  },
  {
    what: 'the campaign list',
    channel: 'campaigns:list',
    start: (client) => {
      const list = new CampaignListStore(client);
      return { load: () => list.load(), error: () => list.error };
    },
  },
];

describe.each(RELOADS)('a reload of $what', ({ channel, start }) => {
  it('keeps the failure on screen while it is asked for again, and a success puts it away', async () => {
    const fake = new FakeContract({ jobs: [makeJob(1, 'a.fts', 'queued')] });
    const store = start(apiClientFrom(fake));
    fake.fail(channel, UNREACHABLE);
    await store.load();
    expect(store.error()).toEqual(UNREACHABLE);
    const release = fake.hold(channel);
    const again = store.load();
    expect(store.loading?.() ?? true).toBe(true);
    expect(store.error()).toEqual(UNREACHABLE);
    release();
    await again;
    expect(store.error()).toBeNull();
    expect(store.loading?.() ?? false).toBe(false);
  });
});
