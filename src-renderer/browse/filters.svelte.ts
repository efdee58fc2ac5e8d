// The filter fields as typed. Every judgement comes from the shared filter rules (the CLI and the core use the
// same ones); this store only decides which fields the chosen product offers and when a message is shown.
import type { ProductMetadata } from '../../src-shared/api/schemas';
import {
  checkDateOrder,
  checkFilterValue,
  checkFilters,
  FILTER_NAMES,
  type FileFilters,
  type FilterCheck,
  type FilterName,
} from '../../src-shared/filters/filter-rules';
import { FILTER_DEFINITIONS } from '../../src-shared/filters/filter-table';

/** Shown when a product's metadata does not list its filters (and before a product is chosen). */
const BASIC_FILTERS: readonly FilterName[] = FILTER_DEFINITIONS.filter((filter) => filter.basic).map((filter) => filter.name);

export function offeredFilters(metadata: ProductMetadata | null): FilterName[] {
  const listed = metadata?.filters;
  if (!listed) return [...BASIC_FILTERS];
  return FILTER_NAMES.filter((name) => listed.includes(name));
}

type PerFilter<T> = Record<FilterName, T>;

function perFilter<T>(value: T): PerFilter<T> {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, value])) as PerFilter<T>;
}

export class FilterStore {
  /** Read through a function so the store follows the catalogue's current product. */
  private readonly metadata: () => ProductMetadata | null;

  values = $state<PerFilter<string>>(perFilter(''));
  /** A field's message shows once the user has left it, or after a search was attempted. */
  touched = $state<PerFilter<boolean>>(perFilter(false));
  attempted = $state(false);

  offered = $derived.by(() => offeredFilters(this.metadata()));

  /** The inline message under each field, or null. */
  errors = $derived.by(() => {
    const errors = perFilter<string | null>(null);
    const valid: Partial<Record<FilterName, string>> = {};
    for (const name of this.offered) {
      const raw = this.values[name];
      if (raw.trim() === '') continue;
      const checked = checkFilterValue(name, raw);
      if (checked.ok) valid[name] = checked.value;
      else if (this.visible(name)) errors[name] = checked.message;
    }
    const order = checkDateOrder(valid['start-date'], valid['end-date']);
    if (order && (this.visible('start-date') || this.visible('end-date'))) errors[order.filter] = order.message;
    return errors;
  });

  constructor(metadata: () => ProductMetadata | null) {
    this.metadata = metadata;
  }

  isOffered(name: FilterName): boolean {
    return this.offered.includes(name);
  }

  touch(name: FilterName): void {
    this.touched[name] = true;
  }

  /**
   * Checks every offered field with the shared rules; values of fields the product does not offer are kept but not
   * sent. Reads the fields only (no message is shown for it), so the window can ask at any time what Search would send.
   */
  check(productLabel?: string): FilterCheck {
    const filters: FileFilters = {};
    for (const name of this.offered) filters[name] = this.values[name];
    return checkFilters(filters, this.metadata()?.filters, productLabel);
  }

  /** A search was attempted: every field's message shows from now on. */
  markAttempted(): void {
    this.attempted = true;
  }

  /** Puts a saved search's filters in the fields (a link from the web): every other field is emptied, no message shows yet. */
  fill(filters: FileFilters): void {
    this.values = perFilter('');
    for (const name of FILTER_NAMES) this.values[name] = String(filters[name] ?? '');
    this.touched = perFilter(false);
    this.attempted = false;
  }

  /** Fills an empty date range with one day (the instrument's latest), so a first search is quick. */
  suggestDay(day: string): void {
    if (this.values['start-date'].trim() === '' && this.values['end-date'].trim() === '') {
      this.values['start-date'] = day;
    }
  }

  private visible(name: FilterName): boolean {
    return this.attempted || this.touched[name];
  }
}
