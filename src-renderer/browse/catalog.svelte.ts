// The catalogue as the user walks it: instruments, the chosen instrument's products, the chosen product's
// metadata (which decides the filter fields). Answers are cached per instrument and product, and a late
// answer for a choice the user has already left is dropped.
import type { InstrumentSummary, ProductEntry, ProductMetadata } from '../../src-shared/api/schemas';
import type { ErrorData } from '../../src-shared/errors';
import type { ApiClient } from '../lib/api';
import { Request } from '../lib/request.svelte';

export class CatalogStore {
  instrumentId = $state('');
  products = $state.raw<ProductEntry[]>([]);
  productId = $state('');
  metadata = $state.raw<ProductMetadata | null>(null);

  instrument = $derived(this.instruments.find((candidate) => candidate.id === this.instrumentId) ?? null);
  product = $derived(this.products.find((candidate) => candidate.id === this.productId) ?? null);

  // Caches, not state: nothing renders from them, so they need no reactivity.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly productLists = new Map<string, ProductEntry[]>();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly metadataCache = new Map<string, ProductMetadata>();

  // A failure stays on screen until the same call answers again or it is dismissed. Choosing another instrument or
  // product cancels the call for the one left, whose late answer is then dropped.
  private readonly instrumentList = new Request<InstrumentSummary[]>({ keepErrorWhileLoading: true });
  private readonly productList = new Request<ProductEntry[]>({ keepErrorWhileLoading: true });
  private readonly productDetails = new Request<ProductMetadata>({ keepErrorWhileLoading: true });

  private readonly client: ApiClient;

  constructor(client: ApiClient) {
    this.client = client;
  }

  get instruments(): InstrumentSummary[] {
    return this.instrumentList.value ?? [];
  }

  get instrumentsLoading(): boolean {
    return this.instrumentList.loading;
  }

  get productsLoading(): boolean {
    return this.productList.loading;
  }

  get metadataLoading(): boolean {
    return this.productDetails.loading;
  }

  /** The last failure of a catalogue call, in the server's words. */
  get error(): ErrorData | null {
    return this.instrumentList.error ?? this.productList.error ?? this.productDetails.error;
  }

  /** Forgets every choice and cached answer: they were another server's (the caller loads the instruments again). */
  reset(): void {
    this.productLists.clear();
    this.metadataCache.clear();
    this.instrumentList.reset();
    this.productList.reset();
    this.productDetails.reset();
    this.instrumentId = '';
    this.products = [];
    this.productId = '';
    this.metadata = null;
  }

  async loadInstruments(): Promise<void> {
    await this.instrumentList.run(() => this.client.invoke('catalog:instruments'));
  }

  async chooseInstrument(id: string): Promise<void> {
    if (id === this.instrumentId && this.products.length > 0) return;
    this.productList.cancel();
    this.productDetails.cancel();
    this.instrumentId = id;
    this.products = [];
    this.productId = '';
    this.metadata = null;
    if (id === '') return;
    let products = this.productLists.get(id);
    if (!products) {
      const result = await this.productList.run(() => this.client.invoke('catalog:products', { instrument: id }));
      if (!result?.ok) return;
      products = result.value;
      this.productLists.set(id, products);
    }
    this.products = products;
    const first = products[0];
    if (first) await this.chooseProduct(first.id);
  }

  async chooseProduct(id: string): Promise<void> {
    const instrument = this.instrumentId;
    this.productDetails.cancel();
    this.productId = id;
    this.metadata = null;
    if (id === '') return;
    const key = `${instrument}/${id}`;
    let metadata = this.metadataCache.get(key);
    if (!metadata) {
      const result = await this.productDetails.run(() => this.client.invoke('catalog:product', { instrument, product: id }));
      if (!result?.ok) return;
      metadata = result.value;
      this.metadataCache.set(key, metadata);
    }
    this.metadata = metadata;
  }

  dismissError(): void {
    this.instrumentList.error = null;
    this.productList.error = null;
    this.productDetails.error = null;
  }
}
