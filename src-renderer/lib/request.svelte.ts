// One request the window waits on, as runes: the last value, the last error and whether an answer is awaited.
// The latest request wins: an answer to one that a later run, a cancel or a reset superseded is dropped, so a
// slow old answer never overwrites a newer one. Stores own one per kind of request and read these three fields.
import type { Result } from '../../src-shared/contract/contract';
import type { ErrorData } from '../../src-shared/errors';

export interface RequestOptions<T> {
  /**
   * Leave the last error on screen until the new answer comes (a reload behind an error banner), instead of
   * putting it away as the request starts (a form sent again, a new search).
   */
  keepErrorWhileLoading?: boolean;
  /** Lets go of what an answer that came too late holds (a file the FITS worker opened for a look given up). */
  discard?: (value: T) => void;
}

export class Request<T> {
  /** The last value answered, or set by the store (an event that carries a newer one). */
  value = $state.raw<T | null>(null);
  /** What the last answer refused, in the app's words, or a refusal the store made itself; null once put away. */
  error = $state.raw<ErrorData | null>(null);
  loading = $state(false);

  /** Numbers the runs; only the answer to the newest one is still wanted. */
  private latest = 0;
  private readonly options: RequestOptions<T>;

  constructor(options: RequestOptions<T> = {}) {
    this.options = options;
  }

  /**
   * Starts a request; resolves with its answer, or with null when the answer came too late to be wanted. A call
   * made of several steps can ask `stillWanted()` between them and skip the rest of the work. The call answers
   * with a Result, as the contract does, and never throws.
   */
  async run(call: (stillWanted: () => boolean) => Promise<Result<T>>): Promise<Result<T> | null> {
    const ticket = ++this.latest;
    const stillWanted = (): boolean => ticket === this.latest;
    this.loading = true;
    if (!this.options.keepErrorWhileLoading) this.error = null;
    const result = await call(stillWanted);
    if (!stillWanted()) {
      if (result.ok) this.options.discard?.(result.value);
      return null;
    }
    this.loading = false;
    if (result.ok) {
      this.value = result.value;
      this.error = null;
    } else {
      this.error = result.error;
    }
    return result;
  }

  /** Stops waiting (the service cannot be told to stop): the answer is dropped, what was shown stays. */
  cancel(): void {
    this.latest += 1;
    this.loading = false;
  }

  /** Forgets the value and the error too (they were about something gone, e.g. another server). */
  reset(): void {
    this.cancel();
    this.value = null;
    this.error = null;
  }
}
