// The Browse screen's state: the catalogue's choices, the filters and the results, and what ties them together
// (the query the form stands for, a search, a download of what was found). Shared through Svelte context.
import { createContext } from 'svelte';
import type { FilesQuery } from '../../src-shared/contract/contract';
import type { FilterName } from '../../src-shared/filters/filter-rules';
import type { ApiClient } from '../lib/api';
import { dayOf } from '../lib/format';
import type { SessionStore } from '../lib/session.svelte';
import { CatalogStore } from './catalog.svelte';
import { FilterStore } from './filters.svelte';
import { ResultsStore } from './results.svelte';

const SIGN_IN_TO_DOWNLOAD = 'Sign in to download: enter the e-mail address you registered with the observatory.';

export type SearchStart = { ok: true } | { ok: false; firstProblem: FilterName | null };
type FormQuery = { ok: true; query: FilesQuery } | { ok: false; firstProblem: FilterName | null };

export class BrowseState {
  readonly catalog: CatalogStore;
  readonly filters: FilterStore;
  readonly results: ResultsStore;

  constructor(
    client: ApiClient,
    private readonly session: SessionStore,
  ) {
    this.catalog = new CatalogStore(client);
    this.filters = new FilterStore(() => this.catalog.metadata);
    this.results = new ResultsStore(client, () => {
      const form = this.formQuery();
      return form.ok ? form.query : null;
    });
  }

  async chooseInstrument(id: string): Promise<void> {
    const instrument = this.catalog.instruments.find((candidate) => candidate.id === id);
    if (instrument) this.filters.suggestDay(dayOf(instrument['end-date']));
    await this.catalog.chooseInstrument(id);
  }

  /**
   * The request Search would send for the form as it stands, built by the shared filter rules. The results compare
   * their query with it (the same normalisation), so "2025-3-24" and "2025-03-24" are one query.
   */
  private formQuery(): FormQuery {
    const { instrumentId, productId, product } = this.catalog;
    if (!instrumentId || !productId) return { ok: false, firstProblem: null };
    const checked = this.filters.check(product ? `${product.title} (${productId})` : undefined);
    if (!checked.ok) return { ok: false, firstProblem: checked.problems[0]?.filter ?? null };
    return { ok: true, query: { instrument: instrumentId, product: productId, filters: checked.query } };
  }

  /** Checks the filters with the shared rules and, when they pass, asks for the listing. */
  search(): SearchStart {
    if (this.catalog.productId) this.filters.markAttempted();
    const form = this.formQuery();
    if (!form.ok) return form;
    void this.results.search(form.query);
    return { ok: true };
  }

  async download(which: 'selected' | 'all'): Promise<void> {
    if (this.results.requestedBy(which) === 0) return;
    if (!this.session.signedIn) {
      this.session.requireSignIn(SIGN_IN_TO_DOWNLOAD);
      return;
    }
    const outcome = await this.results.enqueue(which);
    if (outcome && 'error' in outcome && outcome.error.kind === 'session') this.session.requireSignIn(outcome.error.message);
  }

  /** Forgets the other server's choices, cached answers and listing, and loads this one's instruments. */
  serverMoved(): void {
    this.catalog.reset();
    this.results.clear();
    void this.catalog.loadInstruments();
  }
}

/** The window's BrowseState: App.svelte provides it, the Browse screen and its parts use it (throws outside <App>). */
export const [useBrowse, provideBrowse] = createContext<BrowseState>();
