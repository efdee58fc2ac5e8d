// The Settings screen's form over the saved preferences. The main side validates and answers with the saved
// settings or with a message, which is shown as it is (at its field when the save changed only that one); the form
// keeps what was typed until it is saved.
import type { Settings } from '../../src-shared/settings/settings-types';
import type { ExistingFilePolicy } from '../../src-shared/downloads/existing-file-policy';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from './api';
import { Request } from './request.svelte';

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
  allowOtherHosts: boolean;
  linkReused: boolean;
  notifyWhenDone: boolean;
  autoUpdate: boolean;
  listingTimeoutMinutes: number | null;
  maxListingMegabytes: number | null;
  settleDays: number | null;
  proxy: string;
  limitRate: string;
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
  'allowOtherHosts',
  'linkReused',
  'notifyWhenDone',
  'autoUpdate',
  'listingTimeoutMinutes',
  'maxListingMegabytes',
  'settleDays',
  'proxy',
  'limitRate',
] as const satisfies readonly (keyof SettingsDraft & keyof Settings)[];

function draftOf(settings: Settings): SettingsDraft {
  return Object.fromEntries(DRAFT_KEYS.map((key) => [key, settings[key]])) as unknown as SettingsDraft;
}

export class SettingsStore {
  saved = $state.raw<Settings | null>(null);
  draft = $state<SettingsDraft | null>(null);
  /**
   * The field `error` is about, when that is known: the core names it (`field`), or the refused save changed only
   * that setting. A refusal about no one field (an unknown key) stays in a banner.
   */
  errorField = $state<keyof SettingsDraft | null>(null);
  /** "Saved." after a successful save, until the next edit. */
  confirmation = $state<string | null>(null);

  dirty = $derived(this.saved !== null && this.draft !== null && DRAFT_KEYS.some((key) => this.draft?.[key] !== this.saved?.[key]));

  private readonly reading = new Request<Settings>({ keepErrorWhileLoading: true });
  private readonly saveRequest = new Request<Settings>();
  private readonly folderChoice = new Request<string | null>({ keepErrorWhileLoading: true });

  private readonly client: ApiClient;
  private readonly onChange: (settings: Settings) => void;

  /** `onChange` hears of every settings value the window gets: loaded, saved here, or changed elsewhere. */
  constructor(client: ApiClient, onChange: (settings: Settings) => void) {
    this.client = client;
    this.onChange = onChange;
    client.on('settings:changed', (settings) => this.accept(settings));
  }

  get saving(): boolean {
    return this.saveRequest.loading;
  }

  get choosingFolder(): boolean {
    return this.folderChoice.loading;
  }

  /** Why the settings could not be loaded, saved or given a folder, in the app's words. */
  get error(): ErrorData | null {
    return this.saveRequest.error ?? this.folderChoice.error ?? this.reading.error;
  }

  async load(): Promise<void> {
    const result = await this.reading.run(() => this.client.invoke('settings:get'));
    if (result?.ok) this.accept(result.value);
  }

  /** Sends only what changed, so a save never overwrites a field another window changed meanwhile. */
  async save(): Promise<boolean> {
    if (!this.draft || !this.saved) return false;
    const changes: Partial<Settings> = {};
    for (const key of DRAFT_KEYS) {
      if (this.draft[key] !== this.saved[key]) Object.assign(changes, { [key]: this.draft[key] });
    }
    this.dismissError();
    this.confirmation = null;
    const result = await this.saveRequest.run(() => this.client.invoke('settings:update', changes));
    if (!result) return false;
    if (!result.ok) {
      const keys = Object.keys(changes) as (keyof SettingsDraft)[];
      const named = result.error.field as keyof SettingsDraft | undefined;
      const field = named !== undefined && (DRAFT_KEYS as readonly string[]).includes(named) ? named : keys.length === 1 ? keys[0]! : null;
      this.errorField = result.error.kind === 'invalid-input' ? field : null;
      return false;
    }
    this.accept(result.value);
    this.draft = draftOf(result.value);
    this.confirmation = 'Saved.';
    return true;
  }

  /**
   * Changes settings from outside the form (e.g. "Use demo server" on Browse), leaving what is being typed in the
   * form as it is. Returns the refusal, if any, for the caller to show where the change was asked for.
   */
  async change(changes: Partial<Settings>): Promise<ErrorData | null> {
    const result = await this.client.invoke('settings:update', changes);
    if (!result.ok) return result.error;
    this.accept(result.value);
    // The form shows what was just changed, so a later Save of other edits does not undo it.
    for (const key of DRAFT_KEYS) {
      if (this.draft && Object.hasOwn(changes, key)) Object.assign(this.draft, { [key]: result.value[key] });
    }
    return null;
  }

  revert(): void {
    if (this.saved) this.draft = draftOf(this.saved);
    this.dismissError();
    this.confirmation = null;
  }

  async chooseFolder(): Promise<void> {
    const result = await this.folderChoice.run(() => this.client.invoke('settings:choose-folder'));
    if (result?.ok && result.value !== null && this.draft) this.draft.downloadFolder = result.value;
  }

  /** A folder picked in web mode's folder chooser: it fills the field, to be saved with the form. */
  folderChosen(folder: string): void {
    if (this.draft) this.draft.downloadFolder = folder;
    this.edited();
  }

  edited(): void {
    this.confirmation = null;
  }

  dismissError(): void {
    this.reading.error = null;
    this.saveRequest.error = null;
    this.folderChoice.error = null;
    this.errorField = null;
  }

  /** The message to show under `field`, if the last refusal was about it. */
  errorAt(field: keyof SettingsDraft): string | null {
    return this.error && this.errorField === field ? this.error.message : null;
  }

  private accept(settings: Settings): void {
    const keepEdits = this.dirty;
    this.saved = settings;
    if (!keepEdits || !this.draft) this.draft = draftOf(settings);
    this.onChange(settings);
  }
}
