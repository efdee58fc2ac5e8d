// The package's public entry (`import ... from 'mlso-downloader'`): the API client, the filter rules and the
// download engine for Node and TypeScript users. Nothing here may reach Electron or the command line.

// ---- The API client ------------------------------------------------------------------------------
export { MlsoClient, type ClientOptions, type FilesRequest, type ListingAdvice } from '../core/api/mlso-client';
export { DEFAULT_CLIENT_SETTINGS, type ClientSettings } from '../core/api/client-settings';
export type { HttpResponse, RequestLogger, RequestOptions } from '../core/api/http-transport';
export { DEFAULT_API_VERSION, DEFAULT_BASE_URL, DEFAULT_CLIENT_NAME, REGISTRATION_URL } from '../../src-shared/api/service-facts';
export type {
  About,
  FileEntry,
  FileListing,
  Instrument,
  InstrumentSummary,
  ProductEntry,
  ProductList,
  ProductMetadata,
  ServerMessage,
} from '../../src-shared/api/schemas';

// ---- Failures: every one is an MlsoError with a `kind` and a message fit to show as it is ----------
export {
  AnswerDeadlineError,
  AnswerTooLargeError,
  CancelledError,
  DiskFullError,
  DownloadError,
  InvalidInputError,
  InvalidResponseError,
  MlsoError,
  NetworkError,
  RedirectError,
  ServerError,
  SessionError,
  UnknownUserError,
  toErrorData,
  type AnswerSubject,
  type DownloadFailure,
  type NetworkFailure,
} from '../core/errors';
export type { ErrorData, ErrorKind } from '../../src-shared/errors';
export { InsufficientSpaceError } from '../core/downloads/disk-space';
export { FolderAccessError, type FolderRole, type FolderStep } from '../core/folder-errors';
export { LedgerUnavailableError } from '../core/state/ledger-recovery';
export { LedgerVersionError } from '../core/state/state-migrations';
export { SignInRequiredError } from '../core/downloads/session-keeper';
export { StateFolderBusyError } from '../core/state/state-lock';

// ---- The filter rules (the same checks the command line and the app make) ------------------------
export {
  EVERY_FORM,
  FILTER_LABELS,
  FILTER_NAMES,
  WAVE_REGIONS,
  checkDateOrder,
  checkFilterValue,
  checkFilters,
  type FileFilters,
  type FilterCheck,
  type FilterName,
  type FilterProblem,
  type FilterQuery,
} from '../../src-shared/filters/filter-rules';
export { EVERY_UNITS, parseEvery, type Every, type EveryUnit } from '../../src-shared/filters/every';
export { DATE_FORMS, formatUtTimestamp, parseUtTimestamp, type TimestampParse, type UtTimestamp } from '../../src-shared/filters/ut-timestamp';

// ---- The download engine -------------------------------------------------------------------------
export { openDownloadEngine, type OpenedEngine } from '../core/app/open-engine';
export { describeLedgerRecovery, type LedgerRecovery } from '../core/state/ledger-recovery';
export { defaultStateFolder } from '../core/state/state-folder';
export { CONCURRENCY_LIMITS, DEFAULT_MAX_ATTEMPTS } from '../core/downloads/download-limits';
// The engine comes from openDownloadEngine (which takes the state folder's lock): its class is a type here.
export type { DownloadEngine, DownloadEngineOptions, EnqueueOptions, EnqueueResult, SettleOutcome } from '../core/downloads/download-engine';
export type { DownloadLedger, Job, JobState, StateCounts } from '../core/downloads/download-ledger';
export { JOB_STATES } from '../../src-shared/downloads/job-state';
export { EXISTING_FILE_POLICIES, type ExistingFilePolicy } from '../../src-shared/downloads/existing-file-policy';
export type { EngineEventMap, JobView, OverallProgress, ProgressUpdate, RunProgress } from '../../src-shared/downloads/progress-types';
export { DEFAULT_BACKOFF, type BackoffSettings } from '../core/downloads/retry-policy';
export type { FreeSpaceProbe } from '../core/downloads/disk-space';
