// The one contract between the app's front ends and its core: every invoke channel with its argument and
// result, every event with its payload. The Electron main process registers handlers from it, the
// preload exposes it, the web mode carries it over a WebSocket, and the renderer calls it through one
// adapter without knowing which transport it runs on. Failures cross as data (ErrorData), so the
// renderer can show the server's own words. Each channel's arguments are checked where they enter the
// core by a schema in contract-schemas.ts, which the compiler holds to the types below.
import type { ReusedFiles } from '../downloads/reused-files';
import type {
  CampaignDraft,
  CampaignExport,
  CampaignExportFormat,
  CampaignOverview,
  CampaignSyncProgress,
  CampaignVerifyProgress,
  SyncReport,
  VerifyReport,
} from '../campaigns/campaign-types';
import type { InstrumentSummary, ProductEntry, ProductMetadata } from '../api/schemas';
import type { FileStanding } from '../campaigns/file-standing';
import type { FolderListing } from '../files/folder-listing';
import type { JobView, OverallProgress, ProgressUpdate } from '../downloads/progress-types';
import type { DownloadedFrame } from '../downloads/downloaded-frames';
import type { JobPage, JobPageRequest } from '../downloads/job-page';
import type {
  PositionRun,
  ResultPage,
  ResultPageRequest,
  ResultPositionsRequest,
  ResultSelection,
  ResultTimeline,
  SearchProgress,
} from '../search/result-page';
import type { ErrorData } from '../errors';
import type { FileFilters } from '../filters/filter-rules';
import type { Settings } from '../settings/settings-types';

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorData };

export type ServerKind = 'real' | 'demo' | 'custom';

export interface AppInfo {
  version: string;
  transport: 'electron' | 'web';
  platform: string;
  /** The address actually used for API calls (the demo emulator's while it is on). */
  serverUrl: string;
  serverKind: ServerKind;
  /** The e-mail the demo emulator accepts. */
  demoEmail: string;
  registrationUrl: string;
  /** Whether the front end can show a native folder picker and open folders (not in web mode). */
  canUseNativeDialogs: boolean;
}

export interface SessionState {
  signedIn: boolean;
  email: string | null;
  /** When the session cookie expires (ms since epoch); null when unknown or signed out. */
  expiresAt: number | null;
}

export interface FilesQuery {
  instrument: string;
  product: string;
  filters: FileFilters;
}

/**
 * What to queue: rows of a search the core keeps (the chosen ranges in its sort; all of them when `selection` is
 * absent), or a query the core lists itself. The window never sends file entries or URLs.
 */
export type EnqueueRequest = ({ searchId: string; selection?: ResultSelection } | { query: FilesQuery }) & {
  folder?: string;
};

export interface EnqueueSummary {
  /** Files added to (or resumed in) the queue. */
  queued: number;
  skipped: { filename: string; reason: string }[];
  rejected: { filename: string; reason: string }[];
  /** Files taken from a finished download in another folder instead of fetched: how many, and the folders. */
  reused: ReusedFiles;
  folder: string;
}

/**
 * A downloaded file's bytes, for quick-look. `bytes` crosses as binary: Electron's IPC clones it, web mode sends it
 * as a binary WebSocket frame right after the result (see WebSocketServerMessage).
 */
export interface FileBytes {
  /** The file's name on disk. */
  name: string;
  bytes: Uint8Array;
}

/** A campaign file with where it stands, for the player and the coverage timeline. */
export interface CampaignFileView {
  relativePath: string;
  filename: string;
  instrument: string;
  product: string;
  dateObs: string | null;
  /** The ledger's state of its job; null when it was never queued (missing). */
  state: JobView['state'] | null;
  /** Where it stands by the rule every campaign count uses (src-main/core/campaigns/file-standing.ts): on disk, differs, queued, failed, changed, missing, no longer listed. */
  standing: FileStanding;
  /** The job to read it through files:read once it is done. */
  jobId: number | null;
}

/**
 * What a link from the web (mlso-downloader://) or a campaign file opened from the desktop asks the window, checked by
 * the core: a search to fill Browse with, or a campaign file's text to offer for import. Nothing runs until the user says so.
 */
export type OpenRequest = { kind: 'search'; query: FilesQuery } | { kind: 'import'; source: string; text: string };

interface DownloadsSnapshot {
  jobs: JobView[];
  overall: OverallProgress;
}

interface InvokeChannels {
  'app:info': { args: void; result: AppInfo };
  'settings:get': { args: void; result: Settings };
  /** Validates and saves; a change of server, concurrency or retries takes effect at once. */
  'settings:update': { args: Partial<Settings>; result: Settings };
  /** Native folder picker; null when cancelled (or not available, see AppInfo.canUseNativeDialogs). */
  'settings:choose-folder': { args: void; result: string | null };
  'session:get': { args: void; result: SessionState };
  'session:sign-in': { args: { email: string }; result: SessionState };
  'session:sign-out': { args: void; result: SessionState };
  'catalog:instruments': { args: void; result: InstrumentSummary[] };
  'catalog:products': { args: { instrument: string }; result: ProductEntry[] };
  'catalog:product': { args: { instrument: string; product: string }; result: ProductMetadata };
  /**
   * Starts a search the core keeps (replacing the last), answering once its first rows are in or its listing ended;
   * the rest streams in (search:progress), read by search:page. A search that fails before any row is refused.
   */
  'search:start': { args: FilesQuery; result: SearchProgress };
  /** A window of the search's rows in an order, with the count so far and whether the listing is complete. */
  'search:page': { args: ResultPageRequest; result: ResultPage };
  /**
   * The listing positions of rows in an order (up to RESULT_POSITIONS_MAX_ROWS of them), as runs in listing order:
   * what a shift-click range over rows not read yet selects.
   */
  'search:positions': { args: ResultPositionsRequest; result: PositionRun[] };
  /** The search's files per bin of the coverage timeline, from the rows kept so far; null before any row. */
  'search:timeline': { args: { searchId: string }; result: ResultTimeline | null };
  /** The search's files a finished download holds, in listing order: the player's frames ("Play"). */
  'search:downloaded': { args: { searchId: string }; result: DownloadedFrame[] };
  /**
   * Stops the search's listing (its rows so far stay), or the current search's when none is named (one whose
   * search:start has not answered yet); false when it had ended or was replaced.
   */
  'search:cancel': { args: { searchId?: string }; result: boolean };
  /** Queues files for the download folder of the settings (or `folder`); needs a session. */
  'downloads:enqueue': { args: EnqueueRequest; result: EnqueueSummary };
  'downloads:snapshot': { args: void; result: DownloadsSnapshot };
  /** A window of the list in an order, state filter and place, computed in SQL: the Downloads screen's rows. */
  'downloads:page': { args: JobPageRequest; result: JobPage };
  /** Every folder a job of the list goes to (one GROUP BY), for the Downloads screen's folder filter. */
  'downloads:folders': { args: void; result: string[] };
  /** The finished files (in the list) of these names: the player's frames of a listing's downloaded files. */
  'downloads:finished-of': { args: { filenames: string[] }; result: JobView[] };
  'downloads:pause-all': { args: void; result: null };
  'downloads:resume-all': { args: void; result: null };
  'downloads:retry-failed': { args: void; result: number };
  'downloads:clear-finished': { args: void; result: number };
  'downloads:pause': { args: { id: number }; result: null };
  'downloads:resume': { args: { id: number }; result: null };
  'downloads:cancel': { args: { id: number }; result: null };
  'downloads:retry': { args: { id: number }; result: null };
  'downloads:move-to-front': { args: { id: number }; result: null };
  /** Native folder picker that only answers (a campaign's folder); null when cancelled. Settings are not changed. */
  'shell:choose-folder': { args: { current?: string }; result: string | null };
  /** Opens a folder (the download folder by default) in the system file manager. */
  'shell:open-folder': { args: { path?: string }; result: null };
  /** Shows a downloaded file selected in the system file manager. */
  'shell:show-file': { args: { id: number }; result: null };
  /** Opens an http(s) link (DOI, landing page, registration site) in the system browser. */
  'shell:open-external': { args: { url: string }; result: null };
  /** A finished download's bytes (quick-look, thumbnails, the player); refused for a file larger than 1 GiB. */
  'files:read': { args: { id: number }; result: FileBytes };
  /** Free bytes in a folder (the download folder by default); null when it cannot be told. */
  'disk:free-space': { args: { folder?: string }; result: number | null };
  /** A folder's sub-folders (or its nearest existing parent's, or the home folder's): web mode's folder chooser. */
  'folders:list': { args: { path?: string; showHidden?: boolean }; result: FolderListing };
  /** Makes a folder of a safe name inside `parent`; answers its path. */
  'folders:create': { args: { parent: string; name: string }; result: string };
  /** Every campaign with its counts (on disk, queued, failed, missing) and its last sync. */
  'campaigns:list': { args: void; result: CampaignOverview[] };
  /** A new campaign; its folder defaults to the download folder's sub-folder named after it. */
  'campaigns:create': { args: CampaignDraft; result: CampaignOverview };
  /** Changes a campaign (a new name, folder, layout, queries or automatic sync). */
  'campaigns:update': { args: { name: string; change: Partial<CampaignDraft> }; result: CampaignOverview };
  /** Forgets a campaign; its files stay on disk. */
  'campaigns:delete': { args: { name: string }; result: null };
  /** Every file of a campaign with its state and job, in observation order. */
  'campaigns:files': { args: { name: string }; result: CampaignFileView[] };
  /** Lists every query, queues what is missing or changed and answers once it is queued; needs a session. */
  'campaigns:sync': { args: { name: string }; result: SyncReport };
  /** Stops a sync that is still listing or queueing (what it queued stays queued); false when none was running. */
  'campaigns:cancel-sync': { args: { name: string }; result: boolean };
  /** Recomputes the SHA-256 of every file on disk against the ledger; the next sync fetches what it found missing or changed. */
  'campaigns:verify': { args: { name: string }; result: VerifyReport };
  /** Stops a verify still hashing; nothing it found is recorded (as Ctrl-C on the command line). False when none was running. */
  'campaigns:cancel-verify': { args: { name: string }; result: boolean };
  /** The manifest (CSV or JSON) or the campaign file to share (queries, layout and, with includeFiles, the file list). */
  'campaigns:export': { args: { name: string; format: CampaignExportFormat; includeFiles?: boolean }; result: CampaignExport };
  /** Takes a shared campaign file's text; `folder` and `name` override its own. */
  'campaigns:import': { args: { text: string; folder?: string; name?: string }; result: CampaignOverview };
}

export interface EventChannels {
  /** Throttled by the engine to at most 10 a second. */
  'downloads:progress': ProgressUpdate;
  'downloads:queue-paused': ErrorData | null;
  'downloads:queue-resumed': null;
  'session:changed': SessionState;
  'settings:changed': Settings;
  /** A campaign was added, changed, synced or removed, or its files moved on (throttled to a few a second). */
  'campaigns:changed': CampaignOverview[];
  'campaigns:sync-progress': CampaignSyncProgress;
  'campaigns:verify-progress': CampaignVerifyProgress;
  /** A link or an opened file asks for a search or an import (desktop app only). */
  'app:open-request': OpenRequest;
  /** The kept search's rows grew or its listing ended (throttled to at most 10 a second; the end always said). */
  'search:progress': SearchProgress;
}

export type InvokeChannel = keyof InvokeChannels;
export type EventChannel = keyof EventChannels;
/** The campaign channels, which the core's campaign module (and the renderer tests' fake) answer together. */
export type CampaignChannel = Extract<InvokeChannel, `campaigns:${string}`>;
export type ArgsOf<C extends InvokeChannel> = InvokeChannels[C]['args'];
export type ResultOf<C extends InvokeChannel> = InvokeChannels[C]['result'];

// Runtime lists of the channels, checked against the interfaces above in both directions: a channel
// added to an interface but not here (or the reverse) is a type error.
const INVOKE_CHANNEL_SET = {
  'app:info': true,
  'settings:get': true,
  'settings:update': true,
  'settings:choose-folder': true,
  'session:get': true,
  'session:sign-in': true,
  'session:sign-out': true,
  'catalog:instruments': true,
  'catalog:products': true,
  'catalog:product': true,
  'search:start': true,
  'search:page': true,
  'search:positions': true,
  'search:timeline': true,
  'search:downloaded': true,
  'search:cancel': true,
  'downloads:enqueue': true,
  'downloads:snapshot': true,
  'downloads:page': true,
  'downloads:folders': true,
  'downloads:finished-of': true,
  'downloads:pause-all': true,
  'downloads:resume-all': true,
  'downloads:retry-failed': true,
  'downloads:clear-finished': true,
  'downloads:pause': true,
  'downloads:resume': true,
  'downloads:cancel': true,
  'downloads:retry': true,
  'downloads:move-to-front': true,
  'shell:choose-folder': true,
  'shell:open-folder': true,
  'shell:show-file': true,
  'shell:open-external': true,
  'files:read': true,
  'disk:free-space': true,
  'folders:list': true,
  'folders:create': true,
  'campaigns:list': true,
  'campaigns:create': true,
  'campaigns:update': true,
  'campaigns:delete': true,
  'campaigns:files': true,
  'campaigns:sync': true,
  'campaigns:cancel-sync': true,
  'campaigns:verify': true,
  'campaigns:cancel-verify': true,
  'campaigns:export': true,
  'campaigns:import': true,
} satisfies Record<InvokeChannel, true>;

const EVENT_CHANNEL_SET = {
  'downloads:progress': true,
  'downloads:queue-paused': true,
  'downloads:queue-resumed': true,
  'session:changed': true,
  'settings:changed': true,
  'campaigns:changed': true,
  'campaigns:sync-progress': true,
  'campaigns:verify-progress': true,
  'app:open-request': true,
  'search:progress': true,
} satisfies Record<EventChannel, true>;

export const INVOKE_CHANNELS = Object.keys(INVOKE_CHANNEL_SET) as InvokeChannel[];
export const EVENT_CHANNELS = Object.keys(EVENT_CHANNEL_SET) as EventChannel[];

export function isInvokeChannel(value: unknown): value is InvokeChannel {
  return typeof value === 'string' && Object.hasOwn(INVOKE_CHANNEL_SET, value);
}

export function isEventChannel(value: unknown): value is EventChannel {
  return typeof value === 'string' && Object.hasOwn(EVENT_CHANNEL_SET, value);
}

/** What a transport offers the renderer: typed invokes that never throw, and event subscriptions. */
export interface ContractClient {
  invoke<C extends InvokeChannel>(channel: C, ...args: ArgsOf<C> extends void ? [] : [ArgsOf<C>]): Promise<Result<ResultOf<C>>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventChannels[E]) => void): () => void;
}

/** What a front end's host implements: one handler per invoke channel. Handlers may throw; the host turns errors into data. */
export type ContractHandlers = {
  [C in InvokeChannel]: (args: ArgsOf<C>) => Promise<ResultOf<C>> | ResultOf<C>;
};

/** How the core hands events to a front end's host. */
export type EventSink = <E extends EventChannel>(event: E, payload: EventChannels[E]) => void;

/**
 * The bridge the Electron preload puts on `window` (and that the web transport imitates): the raw
 * form of ContractClient, before the renderer's adapter adds the types.
 */
export interface RawBridge {
  invoke(channel: string, args: unknown): Promise<Result<unknown>>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

export const BRIDGE_GLOBAL = 'mlsoBridge';

/** Messages of the web mode's WebSocket (the same contract, as JSON). */
export type WebSocketClientMessage = { type: 'invoke'; id: number; channel: string; args: unknown };
export type WebSocketServerMessage =
  /**
   * `binary`: the value's `bytes` (a Uint8Array) was left out of the JSON and follows at once as the next, binary,
   * frame on the same socket.
   */
  { type: 'result'; id: number; result: Result<unknown>; binary?: true } | { type: 'event'; event: string; payload: unknown };
