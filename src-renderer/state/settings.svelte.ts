// The Settings screen's form over the saved preferences. The main side validates and answers with the saved
// settings or with a message, which is shown as it is; the form keeps what was typed until it is saved.
import type { Settings } from '../../src-shared/contract/contract';
import type { ExistingFilePolicy } from '../../src-shared/downloads/existing-file-policy';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';

/** The fields the form edits (window bounds and the last e-mail are the app's business, not the user's). */
export interface SettingsDraft {
  downloadFolder: string;
  concurrency: number | null;
  retries: number | null;
  existingFiles: ExistingFilePolicy;
  baseUrl: string;
  apiVersion: string;
  useDemoServer: boolean;
  clientName: string;
  rememberSession: boolean;
  listingTimeoutMinutes: number | null;
  maxListingMegabytes: number | null;
}

const DRAFT_KEYS = [
  'downloadFolder',
  'concurrency',
  'retries',
  'existingFiles',
  'baseUrl',
  'apiVersion',
  'useDemoServer',
  'clientName',
  'rememberSession',
  'listingTimeoutMinutes',
  'maxListingMegabytes',
] as const satisfies readonly (keyof SettingsDraft & keyof Settings)[];

function draftOf(settings: Settings): SettingsDraft {
  return Object.fromEntries(DRAFT_KEYS.map((key) => [key, settings[key]])) as unknown as SettingsDraft;
}

export class SettingsStore {
  saved = $state.raw<Settings | null>(null);
  draft = $state<SettingsDraft | null>(null);
  saving = $state(false);
  choosingFolder = $state(false);
  error = $state.raw<ErrorData | null>(null);
  /** "Saved." after a successful save, until the next edit. */
  confirmation = $state<string | null>(null);

  dirty = $derived(this.saved !== null && this.draft !== null && DRAFT_KEYS.some((key) => this.draft?.[key] !== this.saved?.[key]));

  private readonly client: ApiClient;
  private readonly onSaved: (settings: Settings) => void;

  constructor(client: ApiClient, onSaved: (settings: Settings) => void) {
    this.client = client;
    this.onSaved = onSaved;
    client.on('settings:changed', (settings) => this.accept(settings));
  }

  async load(): Promise<void> {
    const result = await this.client.invoke('settings:get');
    if (result.ok) this.accept(result.value);
    else this.error = result.error;
  }

  /** Sends only what changed, so a save never overwrites a field another window changed meanwhile. */
  async save(): Promise<boolean> {
    if (!this.draft || !this.saved) return false;
    const changes: Partial<Settings> = {};
    for (const key of DRAFT_KEYS) {
      if (this.draft[key] !== this.saved[key]) Object.assign(changes, { [key]: this.draft[key] });
    }
    this.saving = true;
    this.error = null;
    this.confirmation = null;
    const result = await this.client.invoke('settings:update', changes);
    this.saving = false;
    if (!result.ok) {
      this.error = result.error;
      return false;
    }
    this.saved = result.value;
    this.draft = draftOf(result.value);
    this.confirmation = 'Saved.';
    this.onSaved(result.value);
    return true;
  }

  revert(): void {
    if (this.saved) this.draft = draftOf(this.saved);
    this.error = null;
    this.confirmation = null;
  }

  async chooseFolder(): Promise<void> {
    this.choosingFolder = true;
    const result = await this.client.invoke('settings:choose-folder');
    this.choosingFolder = false;
    if (!result.ok) this.error = result.error;
    else if (result.value !== null && this.draft) this.draft.downloadFolder = result.value;
  }

  edited(): void {
    this.confirmation = null;
  }

  dismissError(): void {
    this.error = null;
  }

  private accept(settings: Settings): void {
    const keepEdits = this.dirty;
    this.saved = settings;
    if (!keepEdits || !this.draft) this.draft = draftOf(settings);
  }
}
