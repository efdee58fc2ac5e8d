// The current settings: read once from the front end's store, saved through it, announced on every change.
import type { EventSink } from '../../../src-shared/contract/contract';
import type { Settings } from '../../../src-shared/settings/settings-types';
import type { SettingsPersistence } from './app-ports';
import { applySettingsChange } from './settings-rules';

export class SettingsKeeper {
  private current: Settings;

  constructor(
    private readonly store: SettingsPersistence,
    private readonly emit: EventSink,
  ) {
    this.current = applySettingsChange(store.read(), {});
  }

  get value(): Settings {
    return this.current;
  }

  /** Validates a change against the current settings without saving it (throws InvalidInputError). */
  preview(change: Partial<Settings>): Settings {
    return applySettingsChange(this.current, change);
  }

  /** Saves already validated settings and tells the front end. */
  save(next: Settings): Settings {
    this.current = next;
    this.store.write(next);
    this.emit('settings:changed', next);
    return next;
  }

  /** Saves without announcing: the window's bounds change on every move, and nobody listens for them. */
  saveQuietly(change: Partial<Settings>): void {
    this.current = applySettingsChange(this.current, change);
    this.store.write(this.current);
  }
}
