// Browsing the catalogue: instruments, products and a product's metadata. A product's files are searched for
// through the search channels (see search-handlers.ts), which keep them in the core.
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import type { MlsoClient } from '../api/mlso-client';

export function catalogHandlers(client: MlsoClient): Pick<ContractHandlers, 'catalog:instruments' | 'catalog:products' | 'catalog:product'> {
  return {
    'catalog:instruments': () => client.instruments(),
    'catalog:products': async ({ instrument }) => (await client.products(instrument)).products,
    'catalog:product': ({ instrument, product }) => client.productMetadata(instrument, product),
  };
}
