// An in-memory ContractClient for the renderer's tests and screenshots: two instruments like KCor and UCoMP,
// their products, generated listings, a download queue and settings. Tests can replace any channel's handler,
// make a channel fail with an ErrorData, emit events, and read back every call made.
import type { FileEntry, FileListing, InstrumentSummary, ProductEntry, ProductMetadata } from '../../src-shared/api/schemas';
import { unknownUserMessage } from '../../src-shared/api/unknown-user';
import type {
  AppInfo,
  CampaignChannel,
  ArgsOf,
  ContractClient,
  ContractHandlers,
  EventChannel,
  EventChannels,
  FilesQuery,
  InvokeChannel,
  RawBridge,
  Result,
  ResultOf,
  SessionState,
} from '../../src-shared/contract/contract';
import type { Settings } from '../../src-shared/settings/settings-types';
import { defaultSettings } from '../../src-shared/settings/default-settings';
import { WHOLE_NUMBER_SETTINGS, wholeNumberRefusal } from '../../src-shared/settings/setting-definitions';
import { checkInvokeArguments } from '../../src-shared/contract/invoke-arguments';
import type { JobState } from '../../src-shared/downloads/job-state';
import type { JobCounts, JobView, OverallProgress, RunProgress } from '../../src-shared/downloads/progress-types';
import type { ErrorData } from '../../src-shared/errors';
import { jobComparator } from '../../src-renderer/downloads/job-order';
import { campaignSlug, checkCampaignName } from '../../src-shared/campaigns/campaign-name';
import type {
  Campaign,
  CampaignCounts,
  CampaignOverview,
  CampaignQuery,
  SyncCounts,
  SyncReport,
  VerifyProblem,
  VerifyReport,
} from '../../src-shared/campaigns/campaign-types';
import { campaignCounts, type Arrival, type FileStanding } from '../../src-shared/campaigns/file-standing';
import { checkLayout } from '../../src-shared/campaigns/folder-layout';
import { checkSafeFilename } from '../../src-shared/files/safe-filename';
import { FOLDER_LISTING_LIMIT, type FolderListing } from '../../src-shared/files/folder-listing';
import { searchedRange } from '../../src-shared/coverage/searched-range';
import { coverageBins } from '../../src-shared/coverage/timeline-bins';
import { downloadedFrames } from '../../src-shared/downloads/downloaded-frames';
import { listingTotal } from '../../src-shared/format/human-size';
import { columnsShown } from '../../src-shared/listing/listing-columns';
import { runsOf } from '../../src-shared/search/position-runs';
import type { ResultSelection, ResultSort, SearchProgress } from '../../src-shared/search/result-page';

const FAKE_HOME = '/home/ada';
const FAKE_FOLDERS = [
  '/',
  '/home',
  FAKE_HOME,
  `${FAKE_HOME}/.cache`,
  `${FAKE_HOME}/Data`,
  `${FAKE_HOME}/Downloads`,
  `${FAKE_HOME}/Downloads/MLSO`,
  `${FAKE_HOME}/Documents`,
  `${FAKE_HOME}/mlso`,
];
const parentOf = (folder: string): string => folder.slice(0, folder.lastIndexOf('/')) || '/';
const childPath = (parent: string, name: string): string => (parent === '/' ? `/${name}` : `${parent}/${name}`);

export const DEMO_EMAIL = 'demo@example.com';
export const REGISTRATION_URL = 'https://registration.hao.ucar.edu';

/** Thrown by a handler to answer with `{ ok: false, error }`. */
export class FakeFailure extends Error {
  constructor(readonly error: ErrorData) {
    super(error.message);
  }
}

const DATE_FILTERS = ['start-date', 'end-date', 'cr', 'every'];
const UCOMP_FILTERS = [...DATE_FILTERS, 'wave-region', 'obs-plan'];

export const INSTRUMENTS: InstrumentSummary[] = [
  {
    id: 'kcor',
    name: 'COSMO K-Coronagraph (KCor)',
    doi: 'https://doi.org/10.5065/D69G5JV8',
    'landing-page': 'https://www2.hao.ucar.edu/mlso/instruments/cosmo-k-coronagraph-k-cor',
    dates: { 'start-date': '2013-09-30T18:57:54', 'end-date': '2025-03-24T21:04:20' },
    'start-date': '2013-09-30T18:57:54',
    'end-date': '2025-03-24T21:04:20',
  },
  {
    id: 'ucomp',
    name: 'Upgraded Coronal Multi-Polarimeter (UCoMP)',
    doi: 'https://doi.org/10.26024/g8p7-wy42',
    'landing-page': 'https://www2.hao.ucar.edu/mlso/instruments/upgraded-coronal-multi-polarimeter-ucomp',
    dates: { 'start-date': '2021-07-15T17:31:43', 'end-date': '2025-03-24T20:06:52' },
    'start-date': '2021-07-15T17:31:43',
    'end-date': '2025-03-24T20:06:52',
  },
];

const product = (id: string, title: string, description: string, filters: string[]): ProductMetadata => ({
  id,
  title,
  description,
  filters,
  formats: ['fits'],
});

export const METADATA: Record<string, ProductMetadata[]> = {
  kcor: [
    product('pb', 'pB', 'polarized brightness image', DATE_FILTERS),
    product('nrgf', 'NRGF', 'Normalized Radially Graded Filtered image', DATE_FILTERS),
    product('pbavg', 'pB avg', 'pB average image', DATE_FILTERS),
    product('all', 'All', 'all products', DATE_FILTERS),
  ],
  ucomp: [
    product('l1', 'Level 1', 'IQUV and backgrounds for various wavelengths', UCOMP_FILTERS),
    product('l2', 'Level 2', 'level 2 products', UCOMP_FILTERS),
    product('density', 'Density', 'density', DATE_FILTERS),
    product('all', 'All', 'all products', UCOMP_FILTERS),
  ],
};

const WAVE_REGIONS_CYCLE = ['1074', '789', '637', '706', '1079'] as const;
const OBS_PLANS = ['synoptic-original-lines.cbk', 'waves.cbk'] as const;

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function stamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

export interface ListingOptions {
  instrument: string;
  product: string;
  /** First observation, `YYYY-MM-DD` or a full timestamp (UT). */
  start: string;
  count: number;
  /** Seconds between files. */
  cadence?: number;
  /** Every n-th file has size 0 ("unknown"); 0 for none. */
  zeroEvery?: number;
}

/** A listing like the service's: ascending date-obs, KCor or UCoMP naming, UCoMP's extra fields. */
export function makeListing(options: ListingOptions): FileListing {
  const { instrument, product: productId, start, count, cadence = 15, zeroEvery = 0 } = options;
  const first = Date.parse(start.length === 10 ? `${start}T18:00:00Z` : `${start}Z`);
  const files: FileEntry[] = new Array(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const ms = first + i * cadence * 1000;
    const d = new Date(ms);
    const date = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
    const time = `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
    const size = zeroEvery > 0 && i % zeroEvery === zeroEvery - 1 ? 0 : instrument === 'ucomp' ? 31_501_440 + (i % 7) * 1024 : 2_582_027 + (i % 13) * 97;
    total += size;
    if (instrument === 'ucomp') {
      const region = WAVE_REGIONS_CYCLE[i % WAVE_REGIONS_CYCLE.length] ?? '1074';
      const filename = `${date}.${time}.ucomp.${region}.${productId}.fts`;
      files[i] = {
        'date-obs': stamp(ms),
        filename,
        filesize: size,
        instrument,
        product: productId,
        url: `http://api.example/v1/download?instrument=ucomp&filename=${filename}`,
        'wave-region': region,
        'obs-plan': OBS_PLANS[Math.floor(i / 40) % OBS_PLANS.length],
        wavelengths: 5,
      };
    } else {
      const filename = `${date}_${time}_kcor_l2_${productId}.fts`;
      files[i] = {
        'date-obs': stamp(ms),
        filename,
        filesize: size,
        instrument,
        product: productId,
        url: `http://api.example/v1/download?instrument=kcor&filename=${filename}.gz`,
      };
    }
  }
  return {
    instrument,
    product: productId,
    'start-date': start,
    'end-date': files.at(-1)?.['date-obs'] ?? start,
    files,
    total_filesize: total,
  };
}

export function makeJob(id: number, filename: string, state: JobState, overrides: Partial<JobView> = {}): JobView {
  const expectedSize = 2_582_027;
  return {
    id,
    filename,
    localName: filename,
    folder: '/home/ada/mlso',
    instrument: filename.includes('ucomp') ? 'ucomp' : 'kcor',
    product: filename.includes('ucomp') ? 'l2' : 'pb',
    dateObs: null,
    state,
    attempts: state === 'queued' ? 0 : 1,
    bytesReceived: state === 'done' ? expectedSize : 0,
    bytesWritten: state === 'done' ? expectedSize * 2 : 0,
    speed: 0,
    expectedSize,
    lastError: null,
    lastErrorKind: null,
    nextAttemptAt: null,
    sha256: null,
    resumeBytes: 0,
    // Later ids ended later, a second apart, as a queue worked through in order does.
    finishedAt: state === 'done' || state === 'failed' || state === 'cancelled' ? new Date(Date.UTC(2025, 2, 24, 22, 0, id)).toISOString() : null,
    reusedFrom: null,
    ...overrides,
  };
}

export function overallOf(jobs: readonly JobView[], extra: Partial<OverallProgress> = {}): OverallProgress {
  const speed = jobs.reduce((sum, job) => sum + (job.state === 'active' ? job.speed : 0), 0);
  const remaining = jobs.reduce(
    (sum, job) => sum + (job.state === 'active' || job.state === 'queued' ? Math.max(0, job.expectedSize - job.bytesReceived) : 0),
    0,
  );
  return {
    ...countsOf(jobs),
    speed,
    etaSeconds: speed > 0 ? remaining / speed : null,
    queuePaused: false,
    pauseReason: null,
    run: runOf(jobs),
    ...extra,
  };
}

/** Each state's count and the bytes over `jobs`, as the engine counts them. */
function countsOf(jobs: readonly JobView[]): JobCounts & { bytesReceived: number; bytesWritten: number } {
  const count = (state: JobState): number => jobs.filter((job) => job.state === state).length;
  return {
    total: jobs.length,
    queued: count('queued'),
    active: count('active'),
    paused: count('paused'),
    done: count('done'),
    failed: count('failed'),
    cancelled: count('cancelled'),
    bytesReceived: jobs.reduce((sum, job) => sum + job.bytesReceived, 0),
    bytesWritten: jobs.reduce((sum, job) => sum + job.bytesWritten, 0),
  };
}

/** The run as the engine would report it if every job in the list were queued in one run (tests override it). */
export function runOf(jobs: readonly JobView[], extra: Partial<RunProgress> = {}): RunProgress {
  const counts = countsOf(jobs);
  return {
    number: jobs.length > 0 ? 1 : 0,
    inProgress: counts.active + counts.queued > 0,
    ...counts,
    ...extra,
  };
}

/** The table's defaults; a folder in a home, and a remembered session (the screens then show sign-out). */
const DEFAULT_SETTINGS: Settings = { ...defaultSettings('/home/ada/mlso'), rememberSession: true };

const DEFAULT_APP_INFO: AppInfo = {
  version: '0.1.0',
  transport: 'electron',
  platform: 'linux',
  serverUrl: 'http://api.mlso.ucar.edu',
  serverKind: 'real',
  demoEmail: DEMO_EMAIL,
  registrationUrl: REGISTRATION_URL,
  canUseNativeDialogs: true,
};

export interface FakeOptions {
  appInfo?: Partial<AppInfo>;
  settings?: Partial<Settings>;
  session?: SessionState;
  knownEmails?: string[];
  jobs?: JobView[];
  /** How many files a search finds (default 40). */
  listingSize?: number;
  /** Every n-th listed file has an unknown size (default 0: none). */
  zeroEvery?: number;
  freeSpace?: number | null;
  /** The folders the folder chooser finds (default: a home folder with a few). */
  folders?: string[];
}

/** A search the fake keeps, as the core's search-keeper does: its listing complete, or still arriving. */
interface KeptSearch {
  id: string;
  query: FilesQuery;
  files: FileEntry[];
  complete: boolean;
  failure: ErrorData | null;
}

type Handler<C extends InvokeChannel> = (args: ArgsOf<C>) => ResultOf<C> | Promise<ResultOf<C>>;

export class FakeContract implements ContractClient {
  readonly calls: { channel: InvokeChannel; args: unknown }[] = [];
  appInfo: AppInfo;
  settings: Settings;
  session: SessionState;
  knownEmails: string[];
  jobs: JobView[];
  queuePaused = false;
  listingSize: number;
  zeroEvery: number;
  freeSpace: number | null;
  /** Every folder that exists, by full path (the folder chooser's file system). */
  folders: Set<string>;

  private readonly overrides = new Map<InvokeChannel, (args: unknown) => unknown>();
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private nextJobId: number;
  /** The bytes files:read answers with, by job id (tests put FITS files here). */
  readonly fileBytes = new Map<number, Uint8Array>();
  /** Campaigns, in memory (see FakeCampaigns at the end of the file). */
  readonly campaigns: FakeCampaigns = new FakeCampaigns(this);

  /** The fake's listing for a query: `listingSize` files from the query's start date. */
  listingFor({ instrument, product, filters }: FilesQuery): FileListing {
    return makeListing({ instrument, product, start: String(filters['start-date'] ?? '2025-03-24'), count: this.listingSize, zeroEvery: this.zeroEvery });
  }

  constructor(options: FakeOptions = {}) {
    this.appInfo = { ...DEFAULT_APP_INFO, ...options.appInfo };
    this.settings = { ...DEFAULT_SETTINGS, ...options.settings };
    this.session = options.session ?? { signedIn: false, email: null, expiresAt: null };
    this.knownEmails = options.knownEmails ?? [DEMO_EMAIL, 'ada@example.org'];
    this.jobs = options.jobs ?? [];
    this.listingSize = options.listingSize ?? 40;
    this.zeroEvery = options.zeroEvery ?? 0;
    this.freeSpace = options.freeSpace === undefined ? 120.5 * 1024 ** 3 : options.freeSpace;
    this.folders = new Set(options.folders ?? FAKE_FOLDERS);
    this.nextJobId = this.jobs.reduce((max, job) => Math.max(max, job.id), 0) + 1;
  }

  /** The folder chooser's listing over `folders`: the nearest folder that exists, its children sorted by name. */
  private listFolders(asked: string | undefined, showHidden: boolean): FolderListing {
    let folder = asked?.startsWith('/') ? asked.replace(/(.)\/+$/, '$1') : FAKE_HOME;
    while (!this.folders.has(folder)) folder = folder === '/' ? FAKE_HOME : parentOf(folder);
    const names = [...this.folders]
      .filter((candidate) => candidate !== folder && parentOf(candidate) === folder)
      .map((candidate) => candidate.slice(candidate.lastIndexOf('/') + 1));
    const visible = names.filter((name) => showHidden || !name.startsWith('.')).sort((a, b) => a.localeCompare(b));
    return {
      path: folder,
      label: folder,
      parent: folder === '/' ? null : parentOf(folder),
      folders: visible.slice(0, FOLDER_LISTING_LIMIT).map((name) => ({ name, label: name, path: childPath(folder, name) })),
      total: visible.length,
      hidden: names.length - visible.length,
      problem: null,
    };
  }

  /** Replaces one channel's handler; throw FakeFailure from it to answer with an error. */
  handle<C extends InvokeChannel>(channel: C, handler: Handler<C>): void {
    this.overrides.set(channel, handler as (args: unknown) => unknown);
  }

  /**
   * Holds the channel's answers (its usual ones, or `answer`'s) until the returned function is called, so a test can
   * look at what the window shows while it waits, or answer requests out of order.
   */
  hold<C extends InvokeChannel>(channel: C, answer: Handler<C> = this.defaults[channel] as Handler<C>): () => void {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.handle(channel, async (args) => {
      await released;
      return answer(args);
    });
    return release;
  }

  /** Makes a channel answer with this error from now on. */
  fail(channel: InvokeChannel, error: ErrorData): void {
    this.overrides.set(channel, () => {
      throw new FakeFailure(error);
    });
  }

  emit<E extends EventChannel>(event: E, payload: EventChannels[E]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }

  /** The arguments of every call to a channel, oldest first. */
  callsTo<C extends InvokeChannel>(channel: C): ArgsOf<C>[] {
    return this.calls.filter((call) => call.channel === channel).map((call) => call.args as ArgsOf<C>);
  }

  async invoke<C extends InvokeChannel>(channel: C, ...args: ArgsOf<C> extends void ? [] : [ArgsOf<C>]): Promise<Result<ResultOf<C>>> {
    const arg = args[0];
    this.calls.push({ channel, args: arg });
    // The contract's own check of the arguments, as the core makes it (invoke-handler.ts) before any handler.
    const checked = checkInvokeArguments(channel, arg);
    if (!checked.ok)
      return { ok: false, error: { kind: 'invalid-input', message: checked.message, ...(checked.field === undefined ? {} : { field: checked.field }) } };
    const handler = (this.overrides.get(channel) ?? this.defaults[channel]) as (args: unknown) => unknown;
    try {
      const value = (await handler(checked.value)) as ResultOf<C>;
      return { ok: true, value };
    } catch (error) {
      if (error instanceof FakeFailure) return { ok: false, error: error.error };
      return { ok: false, error: { kind: 'internal', message: String(error) } };
    }
  }

  on<E extends EventChannel>(event: E, listener: (payload: EventChannels[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const untyped = listener as (payload: unknown) => void;
    set.add(untyped);
    return () => set.delete(untyped);
  }

  overall(): OverallProgress {
    return overallOf(this.jobs, { queuePaused: this.queuePaused });
  }

  /** Jobs changed (or new) in the queue: the list holds them, as the core's does, and a progress event says so. */
  progress(changed: readonly JobView[]): void {
    for (const job of changed) {
      const index = this.jobs.findIndex((each) => each.id === job.id);
      if (index >= 0) this.jobs[index] = job;
      else this.jobs.push(job);
    }
    this.emitProgress([...changed]);
  }

  private emitProgress(changed: JobView[]): void {
    this.emit('downloads:progress', { jobs: changed, overall: this.overall() });
  }

  private updateJob(id: number, change: Partial<JobView>): null {
    const index = this.jobs.findIndex((job) => job.id === id);
    const job = this.jobs[index];
    if (!job) throw new FakeFailure({ kind: 'invalid-input', message: `No download with id ${id}.` });
    const updated = { ...job, ...change };
    this.jobs[index] = updated;
    this.emitProgress([updated]);
    return null;
  }

  /** The kept search, as the core's (search-keeper.ts), its listing there at once and complete. */
  private keptSearch: KeptSearch | null = null;
  private searches = 0;

  /**
   * Keeps `files` (the fake's listing for the query unless given) as the search, as search:start does, and says so.
   * An incomplete one is a listing still arriving: growSearch brings the rest.
   */
  keepSearch(query: FilesQuery, files: FileEntry[] = this.listingFor(query).files, complete = true): SearchProgress {
    this.searches += 1;
    this.keptSearch = { id: `search-${this.searches}`, query, files: [...files], complete, failure: null };
    const progress = this.searchProgress(this.keptSearch);
    this.emit('search:progress', progress);
    return progress;
  }

  /** The kept search's listing brings more files (and may end there), and a progress event says so, as the core's. */
  growSearch(more: readonly FileEntry[], complete: boolean): void {
    const search = this.keptSearch;
    if (!search) throw new Error('fake: no search to grow');
    for (const file of more) search.files.push(file);
    search.complete = complete;
    this.emit('search:progress', this.searchProgress(search));
  }

  private searchOf(searchId: string): KeptSearch {
    if (this.keptSearch?.id !== searchId)
      throw new FakeFailure({ kind: 'invalid-input', message: 'Those search results were replaced by a newer search: search again.' });
    return this.keptSearch;
  }

  private searchProgress({ id, files, complete, failure }: KeptSearch): SearchProgress {
    const total = listingTotal(files.map((file) => file.filesize));
    const dates = files.map((file) => file['date-obs']).sort();
    return {
      searchId: id,
      count: files.length,
      complete,
      failure,
      summary: {
        bytes: total.bytes,
        unknownSizes: total.lowerBound,
        firstDateObs: dates[0] ?? null,
        lastDateObs: dates.at(-1) ?? null,
        optionalFields: columnsShown(files)
          .filter((column) => column.optional)
          .map((column) => column.field),
      },
    };
  }

  /** The last order worked out: a sorted million-row search is paged without sorting it for every page. */
  private static lastOrder: { files: readonly FileEntry[]; length: number; sort: string; order: number[] } | null = null;

  /** The positions of a search's files in a sort's order, as result-table.ts orders them (missing values first). */
  private static searchOrder(files: readonly FileEntry[], sort: ResultSort): number[] {
    const last = FakeContract.lastOrder;
    const key = `${sort.key} ${sort.direction}`;
    if (last && last.files === files && last.length === files.length && last.sort === key) return last.order;
    const order = FakeContract.sortedPositions(files, sort);
    FakeContract.lastOrder = { files, length: files.length, sort: key, order };
    return order;
  }

  private static sortedPositions(files: readonly FileEntry[], sort: ResultSort): number[] {
    const valueOf = (entry: FileEntry, position: number): string | number | null => {
      if (sort.key === 'listed') return position;
      if (sort.key === 'filesize') return entry.filesize > 0 ? entry.filesize : null;
      const value = entry[sort.key];
      return value === undefined || value === null || value === '' ? null : String(value);
    };
    const order = files.map((_file, position) => position);
    order.sort((a, b) => {
      const [x, y] = [valueOf(files[a]!, a), valueOf(files[b]!, b)];
      if (x === y) return a - b;
      if (x === null) return -1;
      if (y === null) return 1;
      return x < y ? -1 : 1;
    });
    return sort.direction === 'ascending' ? order : order.reverse();
  }

  private static chosenFiles(files: readonly FileEntry[], selection: ResultSelection): FileEntry[] {
    const order = FakeContract.searchOrder(files, selection.sort);
    const positions = new Set(selection.ranges.flatMap(({ first, last }) => order.slice(first, last + 1)));
    return [...positions].sort((a, b) => a - b).map((position) => files[position]!);
  }

  private readonly defaults: ContractHandlers = {
    'app:info': () => this.appInfo,
    'settings:get': () => this.settings,
    'settings:update': (changes) => {
      // The table's ranges, worded as the core's settings rules word them.
      for (const key of WHOLE_NUMBER_SETTINGS) {
        const refusal = wholeNumberRefusal(key, changes[key] ?? this.settings[key]);
        if (refusal !== null) throw new FakeFailure({ kind: 'invalid-input', message: refusal, field: key });
      }
      this.settings = { ...this.settings, ...changes };
      if (changes.useDemoServer !== undefined) {
        this.appInfo = changes.useDemoServer
          ? { ...this.appInfo, serverKind: 'demo', serverUrl: 'http://127.0.0.1:5199' }
          : { ...this.appInfo, serverKind: 'real', serverUrl: this.settings.baseUrl };
      }
      this.emit('settings:changed', this.settings);
      return this.settings;
    },
    'settings:choose-folder': () => '/home/ada/chosen',
    'shell:choose-folder': () => '/home/ada/chosen',
    'session:get': () => this.session,
    'session:sign-in': ({ email }) => {
      if (!this.knownEmails.includes(email)) {
        throw new FakeFailure({
          kind: 'unknown-user',
          status: 404,
          message: unknownUserMessage(email, REGISTRATION_URL, this.appInfo.serverKind === 'demo' ? this.appInfo.demoEmail : undefined),
          registrationUrl: REGISTRATION_URL,
        });
      }
      this.session = { signedIn: true, email, expiresAt: Date.now() + 86_400_000 };
      return this.session;
    },
    'session:sign-out': () => {
      this.session = { signedIn: false, email: null, expiresAt: null };
      return this.session;
    },
    'catalog:instruments': () => INSTRUMENTS,
    'catalog:products': ({ instrument }): ProductEntry[] => {
      const products = METADATA[instrument];
      if (!products) throw new FakeFailure({ kind: 'server', status: 404, message: `instrument ${instrument} not found` });
      return products.map(({ id, title, description }) => ({ id, title, description }));
    },
    'catalog:product': ({ instrument, product: productId }) => {
      const found = METADATA[instrument]?.find((candidate) => candidate.id === productId);
      if (!found) throw new FakeFailure({ kind: 'server', status: 404, message: `product ${productId} not found` });
      return found;
    },
    'downloads:enqueue': (request) => {
      // As the core does: rows of the search it keeps, or a query it lists itself.
      let files: FileEntry[];
      if ('searchId' in request) {
        const search = this.searchOf(request.searchId);
        files = request.selection ? FakeContract.chosenFiles(search.files, request.selection) : search.files;
      } else {
        files = this.listingFor(request.query).files;
      }
      const known = new Set(this.jobs.map((job) => job.filename));
      const added: JobView[] = [];
      const skipped: { filename: string; reason: string }[] = [];
      for (const file of files) {
        if (known.has(file.filename)) skipped.push({ filename: file.filename, reason: 'already in the queue' });
        else
          added.push(makeJob(this.nextJobId++, file.filename, 'queued', { instrument: file.instrument, product: file.product, expectedSize: file.filesize }));
      }
      for (const job of added) this.jobs.push(job);
      if (added.length > 0) this.emitProgress(added);
      return { queued: added.length, skipped, rejected: [], reused: { count: 0, from: [] }, folder: request.folder ?? this.settings.downloadFolder };
    },
    'search:start': (query) => this.keepSearch(query),
    'search:page': ({ searchId, offset, limit, sort }) => {
      const search = this.searchOf(searchId);
      // The listing's own order needs no sorting: a million-row search pages at once.
      const end = Math.min(offset + limit, search.files.length);
      const listed = sort.key === 'listed' && sort.direction === 'ascending';
      const positions = listed
        ? Array.from({ length: Math.max(0, end - offset) }, (_, at) => offset + at)
        : FakeContract.searchOrder(search.files, sort).slice(offset, offset + limit);
      return { ...this.searchProgress(search), offset, rows: positions.map((position) => ({ position, entry: search.files[position]! })) };
    },
    'search:positions': ({ searchId, sort, first, last }) => {
      const search = this.searchOf(searchId);
      if (last >= search.files.length)
        throw new FakeFailure({ kind: 'invalid-input', message: `Rows ${first} to ${last} are not in those search results: search again, then download.` });
      return runsOf(FakeContract.searchOrder(search.files, sort).slice(first, last + 1));
    },
    'search:timeline': ({ searchId }) => {
      const search = this.searchOf(searchId);
      const dates = search.files.map((file) => file['date-obs']);
      const range = dates.length === 0 ? null : searchedRange(search.query.filters, dates);
      if (range === null) return null;
      const bins = coverageBins(dates, range);
      return { size: bins.size, edges: bins.edges, counts: Array.from(bins.counts) };
    },
    'search:downloaded': ({ searchId }) => downloadedFrames(this.searchOf(searchId).files, this.jobs),
    // As the core's: a listing still arriving stops, its rows so far stay, and a progress event says why.
    'search:cancel': ({ searchId }) => {
      const search = this.keptSearch;
      if (!search || (searchId !== undefined && searchId !== search.id) || search.complete || search.failure) return false;
      search.failure = { kind: 'cancelled', message: 'The search was stopped before the listing ended; the files listed until then are shown.' };
      this.emit('search:progress', this.searchProgress(search));
      return true;
    },
    'downloads:snapshot': () => ({ jobs: [...this.jobs], overall: this.overall() }),
    // As the core's SQL does (job-pages.ts), over the fake's list in memory: the order the comparators give.
    'downloads:page': ({ offset, limit, states, place, sort, counted }) => {
      const positions = new Map(this.jobs.map((job, index) => [job.id, index]));
      const inPlace = (job: JobView): boolean => place === null || job.folder === place.folder || (place.nested && job.folder.startsWith(`${place.folder}/`));
      const kept = this.jobs.filter(inPlace);
      const rows = kept.filter((job) => states === null || states.includes(job.state)).sort(jobComparator(sort, (id) => positions.get(id)!));
      const overall = this.overall();
      return {
        offset,
        jobs: rows.slice(offset, offset + limit),
        counts: counted ? (place === null ? overall : countsOf(kept)) : null,
        overall: counted ? overall : null,
      };
    },
    'downloads:folders': () => [...new Set(this.jobs.map((job) => job.folder))].sort(),
    'downloads:finished-of': ({ filenames }) => this.jobs.filter((job) => job.state === 'done' && filenames.includes(job.filename)),
    'downloads:pause-all': () => {
      this.queuePaused = true;
      this.emit('downloads:queue-paused', null);
      return null;
    },
    'downloads:resume-all': () => {
      this.queuePaused = false;
      this.emit('downloads:queue-resumed', null);
      return null;
    },
    'downloads:retry-failed': () => {
      const failed = this.jobs.filter((job) => job.state === 'failed');
      for (const job of failed) this.updateJob(job.id, { state: 'queued', lastError: null });
      return failed.length;
    },
    'downloads:clear-finished': () => {
      const before = this.jobs.length;
      this.jobs = this.jobs.filter((job) => job.state !== 'done' && job.state !== 'cancelled');
      return before - this.jobs.length;
    },
    'downloads:pause': ({ id }) => this.updateJob(id, { state: 'paused', speed: 0 }),
    'downloads:resume': ({ id }) => this.updateJob(id, { state: 'queued' }),
    'downloads:cancel': ({ id }) => this.updateJob(id, { state: 'cancelled', speed: 0 }),
    'downloads:retry': ({ id }) => this.updateJob(id, { state: 'queued', lastError: null }),
    'downloads:move-to-front': ({ id }) => {
      const job = this.jobs.find((candidate) => candidate.id === id);
      if (job) this.jobs = [job, ...this.jobs.filter((candidate) => candidate.id !== id)];
      return null;
    },
    'shell:open-folder': () => null,
    'shell:show-file': () => null,
    'shell:open-external': () => null,
    'disk:free-space': () => this.freeSpace,
    'folders:list': ({ path, showHidden }) => this.listFolders(path, showHidden ?? false),
    'folders:create': ({ parent, name }) => {
      const check = checkSafeFilename(name);
      if (!check.ok)
        throw new FakeFailure({ kind: 'invalid-input', message: `The folder name "${name}" cannot be used: ${check.reason}. Choose another name.` });
      const made = childPath(parent, name);
      if (this.folders.has(made)) throw new FakeFailure({ kind: 'invalid-input', message: `"${name}" already exists here. Choose another name.` });
      this.folders.add(made);
      return made;
    },
    'files:read': ({ id }) => {
      const bytes = this.fileBytes.get(id);
      const job = this.jobs.find((candidate) => candidate.id === id);
      if (!bytes || !job) throw new FakeFailure({ kind: 'invalid-input', message: 'That download is no longer in the list.' });
      return { name: job.localName, bytes };
    },
    ...this.campaigns.handlers(),
  };
}

/** The fake as the preload would expose it: untyped channel names and arguments. */
export function rawBridgeOf(fake: FakeContract): RawBridge {
  return {
    invoke: (channel, args) => (fake.invoke as (channel: string, args: unknown) => Promise<Result<unknown>>)(channel, args),
    on: (event, listener) => fake.on(event as EventChannel, listener),
  };
}

// ---- Campaigns (issue 9), kept in memory: create/update/delete with the shared name and layout rules, sync over the
// fake's listings (with progress events, and a gate a test can hold), files that arrive when a test says so, verify
// problems a test sets, exports and imports. Every change is announced with `campaigns:changed`, as the core does.

interface FakeCampaignState {
  campaign: Campaign;
  /** Every file the queries listed (file name to the query's instrument), the set's size is the campaign's `files`. */
  listed: Map<string, string>;
  onDisk: Set<string>;
  /** On disk, but not the file a shared file list named (another SHA-256). */
  differs: Set<string>;
  queued: Set<string>;
  failed: Set<string>;
  /** Found changed on disk by verify, not fetched again since. */
  changed: Set<string>;
  /** Not named by the campaign's last whole listing. */
  noLongerListed: Set<string>;
  /** Arrived since the last sync started (the rest on disk was already there). */
  fetched: Set<string>;
  /** Of those, the ones copied or linked from another folder instead of downloaded. */
  reused: Set<string>;
  syncing: boolean;
  /** Cancel was asked while the sync waited at its gate. */
  cancelRequested: boolean;
  /** A verify waits at its gate (verifyGate). */
  verifying: boolean;
  /** Cancel was asked while the verify waited at its gate. */
  verifyCancelRequested: boolean;
  lastSync: SyncReport | null;
}

export interface CampaignSeed {
  name: string;
  folder?: string;
  layout?: string;
  queries?: CampaignQuery[];
  autoSyncHours?: number | null;
  lastSyncAt?: string | null;
  /** The last sync's report, as the core kept it. */
  lastSync?: SyncReport;
  /** How many files are in each state (named kcor-style, in that order). */
  files?: { onDisk?: number; reused?: number; differs?: number; queued?: number; failed?: number; missing?: number; noLongerListed?: number };
}

export const KCOR_PB_DAY: CampaignQuery = {
  instrument: 'kcor',
  product: 'pb',
  filters: { 'start-date': '2025-03-24', 'end-date': '2025-03-25', every: '2hours' },
};

export class FakeCampaigns {
  readonly states = new Map<string, FakeCampaignState>();
  /** What the next verify reports (paths inside the folder); the files named missing or changed leave the disk. */
  verifyProblems: VerifyReport['problems'] = [];
  /** A sync waits on this after its first progress event, so a test can look at the screen mid-sync. */
  syncGate: Promise<void> = Promise.resolve();
  /** A verify waits on this before it reports, so a test can show its progress and press Cancel. */
  verifyGate: Promise<void> = Promise.resolve();
  /** A folder where a sync finds every file it lacks finished already: it copies them from there instead of queueing them. */
  reuseFrom: string | null = null;

  constructor(private readonly fake: FakeContract) {}

  seed(seed: CampaignSeed): void {
    const state = this.newState({
      name: seed.name,
      folder: seed.folder ?? `${this.fake.settings.downloadFolder}/${campaignSlug(seed.name)}`,
      layout: seed.layout ?? '',
      queries: seed.queries ?? [KCOR_PB_DAY],
      autoSyncHours: seed.autoSyncHours ?? null,
      createdAt: '2025-03-20T10:00:00.000Z',
      lastSyncAt: seed.lastSyncAt ?? null,
    });
    let n = 0;
    const add = (count: number | undefined, ...into: Set<string>[]): void => {
      for (let i = 0; i < (count ?? 0); i++) {
        const name = `20250324_${String(180000 + n++).padStart(6, '0')}_kcor_l2_pb.fts`;
        state.listed.set(name, 'kcor');
        for (const set of into) set.add(name);
      }
    };
    add(seed.files?.onDisk, state.onDisk);
    // On disk, copied or linked from another folder by the last sync.
    add(seed.files?.reused, state.onDisk, state.fetched, state.reused);
    add(seed.files?.differs, state.differs);
    add(seed.files?.queued, state.queued);
    add(seed.files?.failed, state.failed);
    add(seed.files?.missing);
    add(seed.files?.noLongerListed, state.noLongerListed);
    if (seed.lastSync) state.lastSync = seed.lastSync;
    this.states.set(seed.name, state);
  }

  /** The campaign's counts by the core's own function (campaignCounts), over the fake's sets. */
  counts(state: FakeCampaignState, files: Iterable<string> = state.listed.keys(), synced = state.campaign.lastSyncAt !== null): CampaignCounts {
    const arrival = (file: string): Arrival => (state.reused.has(file) ? 'reused' : state.fetched.has(file) ? 'downloaded' : 'alreadyThere');
    const groups = [...files].map((file) => ({ standing: this.standing(state, file), arrival: arrival(file), files: 1 }));
    return campaignCounts(groups, synced);
  }

  overview(state: FakeCampaignState): CampaignOverview {
    const counts = this.counts(state);
    const { files: _files, ...now } = counts;
    // As the core does: the last sync's total is the campaign's counts as they stand.
    const lastSync = state.lastSync && { ...state.lastSync, total: { ...state.lastSync.total, ...now } };
    return { ...state.campaign, queries: [...state.campaign.queries], counts, syncing: state.syncing, lastSync };
  }

  list(): CampaignOverview[] {
    return [...this.states.values()].map((state) => this.overview(state));
  }

  /** Queued files arrive (all, or the first `count`), as the engine's downloads would report them. */
  arrive(name: string, count?: number): void {
    const state = this.get(name);
    for (const file of [...state.queued].slice(0, count ?? state.queued.size)) {
      state.queued.delete(file);
      state.onDisk.add(file);
      state.fetched.add(file);
    }
    this.changed();
  }

  handlers(): Pick<ContractHandlers, CampaignChannel> {
    return {
      'campaigns:list': () => this.list(),
      'campaigns:create': (draft) => {
        const name = this.checkedName(draft.name);
        const state = this.newState({
          name,
          folder: draft.folder ?? `${this.fake.settings.downloadFolder}/${campaignSlug(name)}`,
          layout: this.checkedLayout(draft.layout ?? ''),
          queries: draft.queries,
          autoSyncHours: draft.autoSyncHours ?? null,
          createdAt: new Date().toISOString(),
          lastSyncAt: null,
        });
        this.states.set(name, state);
        this.changed();
        return this.overview(state);
      },
      'campaigns:update': ({ name, change }) => {
        const state = this.get(name);
        const next = { ...state.campaign };
        if (change.name !== undefined && change.name.trim() !== name) next.name = this.checkedName(change.name);
        if (change.folder !== undefined) next.folder = change.folder;
        if (change.layout !== undefined) next.layout = this.checkedLayout(change.layout);
        if (change.queries !== undefined) next.queries = change.queries;
        if (change.autoSyncHours !== undefined) next.autoSyncHours = change.autoSyncHours;
        state.campaign = next;
        if (next.name !== name) {
          this.states.delete(name);
          this.states.set(next.name, state);
        }
        this.changed();
        return this.overview(state);
      },
      'campaigns:delete': ({ name }) => {
        this.get(name);
        this.states.delete(name);
        this.changed();
        return null;
      },
      'campaigns:sync': async ({ name }) => {
        const state = this.get(name);
        if (!this.fake.session.signedIn)
          throw new FakeFailure({ kind: 'session', message: 'Sign in to sync: the archive serves files to registered users only.' });
        state.syncing = true;
        this.changed();
        this.fake.emit('campaigns:sync-progress', { campaign: name, phase: 'listing', listed: 0 });
        await this.syncGate;
        if (state.cancelRequested) {
          state.cancelRequested = false;
          state.syncing = false;
          this.fake.emit('campaigns:sync-progress', { campaign: name, phase: 'done', listed: 0 });
          this.changed();
          throw new FakeFailure({ kind: 'cancelled', message: 'The sync was cancelled.' });
        }
        const known = new Set(state.listed.keys());
        state.fetched.clear();
        state.reused.clear();
        const seen = new Set<string>();
        let duplicates = 0;
        const queries = state.campaign.queries.map((query) => {
          const files = this.fake.listingFor({ instrument: query.instrument, product: query.product, filters: query.filters }).files;
          for (const file of files) {
            if (seen.has(file.filename)) duplicates += 1;
            seen.add(file.filename);
            state.listed.set(file.filename, file.instrument);
          }
          return {
            query,
            ...this.syncCounts(
              state,
              files.map((file) => file.filename),
              known,
            ),
          };
        });
        this.fake.emit('campaigns:sync-progress', { campaign: name, phase: 'checking', listed: seen.size });
        this.fake.emit('campaigns:sync-progress', { campaign: name, phase: 'queueing', listed: seen.size });
        let queued = 0;
        for (const file of seen) {
          if (state.onDisk.has(file) || state.queued.has(file)) continue;
          state.failed.delete(file);
          state.changed.delete(file);
          if (this.reuseFrom !== null) {
            // As the core's enqueuer: done at once, counted reused rather than downloaded.
            state.onDisk.add(file);
            state.fetched.add(file);
            state.reused.add(file);
            continue;
          }
          state.queued.add(file);
          queued += 1;
        }
        const total = { ...this.syncCounts(state, [...state.listed.keys()], known), listed: seen.size };
        const reused = { count: state.reused.size, from: state.reused.size > 0 && this.reuseFrom !== null ? [this.reuseFrom] : [] };
        const report: SyncReport = {
          campaign: name,
          at: new Date().toISOString(),
          queries,
          total,
          duplicates,
          refused: [],
          moved: [],
          differing: [],
          reused,
        };
        state.syncing = false;
        state.lastSync = report;
        state.campaign = { ...state.campaign, lastSyncAt: report.at };
        this.fake.emit('campaigns:sync-progress', { campaign: name, phase: queued > 0 ? 'downloading' : 'done', listed: seen.size });
        this.changed();
        return report;
      },
      'campaigns:files': ({ name }) => {
        const state = this.get(name);
        return [...state.listed.entries()].map(([filename, instrument]) => ({
          relativePath: filename,
          filename,
          instrument,
          product: 'pb',
          dateObs: null,
          state:
            state.onDisk.has(filename) || state.differs.has(filename)
              ? ('done' as const)
              : state.queued.has(filename)
                ? ('queued' as const)
                : state.failed.has(filename)
                  ? ('failed' as const)
                  : null,
          standing: this.standing(state, filename),
          jobId: null,
        }));
      },
      'campaigns:cancel-sync': ({ name }) => {
        const state = this.get(name);
        if (!state.syncing) return false;
        state.cancelRequested = true;
        return true;
      },
      'campaigns:cancel-verify': ({ name }) => {
        const state = this.get(name);
        if (!state.verifying) return false;
        state.verifyCancelRequested = true;
        return true;
      },
      'campaigns:verify': async ({ name }) => {
        const state = this.get(name);
        state.verifying = true;
        await this.verifyGate;
        state.verifying = false;
        if (state.verifyCancelRequested) {
          // As the core does: a cancelled verify records nothing.
          state.verifyCancelRequested = false;
          throw new FakeFailure({ kind: 'cancelled', message: 'The verify was cancelled.' });
        }
        const count = (problem: VerifyProblem): number => this.verifyProblems.filter((item) => item.problem === problem).length;
        // As the core does: what verify finds is recorded (a file gone is missing, a changed one changed), and the
        // report's counts are the campaign's.
        for (const item of this.verifyProblems) {
          const file = item.path.split('/').at(-1) ?? item.path;
          if (item.problem === 'missing' || item.problem === 'changed') state.onDisk.delete(file);
          if (item.problem === 'changed') state.changed.add(file);
        }
        this.changed();
        return {
          campaign: name,
          at: new Date().toISOString(),
          ...this.counts(state),
          unexpected: count('unexpected'),
          refused: count('refused'),
          problems: [...this.verifyProblems],
        };
      },
      'campaigns:export': ({ name, format, includeFiles }) => {
        const state = this.get(name);
        const files = [...state.onDisk].sort();
        const base = campaignSlug(name);
        const acknowledgement = this.acknowledgement(state);
        if (format === 'csv') {
          const text = ['date-obs,instrument,product,filename', ...files.map((file) => `,kcor,pb,${file}`)].join('\n') + '\n';
          return { fileName: `${base}-manifest.csv`, mediaType: 'text/csv', text, acknowledgement };
        }
        if (format === 'json') {
          return { fileName: `${base}-manifest.json`, mediaType: 'application/json', text: JSON.stringify({ campaign: name, files }), acknowledgement };
        }
        const shared = { name, layout: state.campaign.layout, queries: state.campaign.queries, ...(includeFiles ? { files } : {}) };
        return { fileName: `${base}.campaign.json`, mediaType: 'application/json', text: JSON.stringify(shared), acknowledgement };
      },
      'campaigns:import': ({ text, folder, name }) => {
        let shared: { name?: unknown; layout?: unknown; queries?: unknown };
        try {
          shared = JSON.parse(text) as typeof shared;
        } catch {
          throw new FakeFailure({
            kind: 'invalid-input',
            message: 'This file is not a campaign file (it is not JSON); export one with Export, Campaign file.',
          });
        }
        if (!Array.isArray(shared.queries)) throw new FakeFailure({ kind: 'invalid-input', message: 'This file is not a campaign file: it lists no queries.' });
        return this.handlers()['campaigns:create']({
          name: name ?? String(shared.name ?? ''),
          layout: typeof shared.layout === 'string' ? shared.layout : '',
          queries: shared.queries as CampaignQuery[],
          ...(folder === undefined ? {} : { folder }),
        }) as CampaignOverview;
      },
    };
  }

  private newState(campaign: Campaign): FakeCampaignState {
    return {
      campaign,
      listed: new Map(),
      onDisk: new Set(),
      differs: new Set(),
      queued: new Set(),
      failed: new Set(),
      changed: new Set(),
      noLongerListed: new Set(),
      fetched: new Set(),
      reused: new Set(),
      syncing: false,
      cancelRequested: false,
      verifying: false,
      verifyCancelRequested: false,
      lastSync: null,
    };
  }

  private get(name: string): FakeCampaignState {
    const state = this.states.get(name);
    if (!state) throw new FakeFailure({ kind: 'invalid-input', message: `No campaign is named "${name}"; see the list for the names there are.` });
    return state;
  }

  private checkedName(raw: string): string {
    const checked = checkCampaignName(raw);
    if (!checked.ok) throw new FakeFailure({ kind: 'invalid-input', message: checked.message });
    if (this.states.has(checked.name))
      throw new FakeFailure({ kind: 'invalid-input', message: `A campaign named "${checked.name}" exists already; choose another name.` });
    return checked.name;
  }

  private checkedLayout(raw: string): string {
    const checked = checkLayout(raw);
    if (!checked.ok) throw new FakeFailure({ kind: 'invalid-input', message: checked.message });
    return checked.template;
  }

  private syncCounts(state: FakeCampaignState, files: string[], known: Set<string>): SyncCounts {
    const { files: _files, ...counts } = this.counts(state, files, true);
    return { listed: files.length, new: files.filter((file) => !known.has(file)).length, ...counts };
  }

  private standing(state: FakeCampaignState, file: string): FileStanding {
    return (['noLongerListed', 'onDisk', 'differs', 'queued', 'failed', 'changed'] as const).find((standing) => state[standing].has(file)) ?? 'missing';
  }

  private acknowledgement(state: FakeCampaignState): string {
    const used = new Set(state.campaign.queries.map((query) => query.instrument));
    const named = INSTRUMENTS.filter((instrument) => used.has(instrument.id)).map((instrument) => `${instrument.name} (${instrument.doi})`);
    return `This work uses data from the Mauna Loa Solar Observatory: ${named.join(', ')}.`;
  }

  private changed(): void {
    this.fake.emit('campaigns:changed', this.list());
  }
}
