// The catalogue as the user walks it: instruments, the chosen instrument's products, the chosen product's
// metadata (which decides the filter fields). Answers are cached per instrument and product, and a late
// answer for a choice the user has already left is dropped.
import type { InstrumentSummary, ProductEntry, ProductMetadata } from '../../src-shared/api/schemas';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';

export class CatalogStore {
  instruments = $state.raw<InstrumentSummary[]>([]);
  instrumentsLoading = $state(false);
  instrumentId = $state('');
  products = $state.raw<ProductEntry[]>([]);
  productsLoading = $state(false);
  productId = $state('');
  metadata = $state.raw<ProductMetadata | null>(null);
  metadataLoading = $state(false);
  /** The last failure of a catalogue call, in the server's words. */
  error = $state.raw<ErrorData | null>(null);

  instrument = $derived(this.instruments.find((candidate) => candidate.id === this.instrumentId) ?? null);
  product = $derived(this.products.find((candidate) => candidate.id === this.productId) ?? null);

  // Caches, not state: nothing renders from them, so they need no reactivity.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly productLists = new Map<string, ProductEntry[]>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly metadataCache = new Map<string, ProductMetadata>();

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  /** Forgets every choice and cached answer: they were another server's (the caller loads the instruments again). */
  reset(): void {
    this.productLists.clear();
    this.metadataCache.clear();
    this.instruments = [];
    this.instrumentId = '';
    this.products = [];
    this.productId = '';
    this.metadata = null;
    this.error = null;
  }

  async loadInstruments(): Promise<void> {
    this.instrumentsLoading = true;
    const result = await this.client.invoke('catalog:instruments');
    this.instrumentsLoading = false;
    if (result.ok) {
      this.instruments = result.value;
      this.error = null;
    } else {
      this.error = result.error;
    }
  }

  async chooseInstrument(id: string): Promise<void> {
    if (id === this.instrumentId && this.products.length > 0) return;
    this.instrumentId = id;
    this.products = [];
    this.productId = '';
    this.metadata = null;
    if (id === '') return;
    let products = this.productLists.get(id);
    if (!products) {
      this.productsLoading = true;
      const result = await this.client.invoke('catalog:products', { instrument: id });
      this.productsLoading = false;
      if (this.instrumentId !== id) return;
      if (!result.ok) {
        this.error = result.error;
        return;
      }
      products = result.value;
      this.productLists.set(id, products);
    }
    this.products = products;
    const first = products[0];
    if (first) await this.chooseProduct(first.id);
  }

  async chooseProduct(id: string): Promise<void> {
    const instrument = this.instrumentId;
    this.productId = id;
    this.metadata = null;
    if (id === '') return;
    const key = `${instrument}/${id}`;
    let metadata = this.metadataCache.get(key);
    if (!metadata) {
      this.metadataLoading = true;
      const result = await this.client.invoke('catalog:product', { instrument, product: id });
      this.metadataLoading = false;
      if (this.instrumentId !== instrument || this.productId !== id) return;
      if (!result.ok) {
        this.error = result.error;
        return;
      }
      metadata = result.value;
      this.metadataCache.set(key, metadata);
    }
    this.metadata = metadata;
  }

  dismissError(): void {
    this.error = null;
  }
}
