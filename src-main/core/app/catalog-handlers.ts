// Browsing the catalogue: instruments, products, a product's metadata and its files. File listings are kept
// (see KeptListings) so that downloads can refer to them.
import type { ContractHandlers } from '../../../src-shared/contract/contract';
import type { MlsoClient } from '../api/mlso-client';
import type { KeptListings } from './kept-listings';

export function catalogHandlers(
  client: MlsoClient,
  kept: KeptListings,
): Pick<ContractHandlers, 'catalog:instruments' | 'catalog:products' | 'catalog:product' | 'catalog:files'> {
  return {
    'catalog:instruments': () => client.instruments(),
    'catalog:products': async ({ instrument }) => (await client.products(instrument)).products,
    'catalog:product': ({ instrument, product }) => client.productMetadata(instrument, product),
    'catalog:files': async ({ instrument, product, filters }) => {
      const listing = await client.files({ instrument, product, filters });
      return { ...listing, listingId: kept.keep(listing) };
    },
  };
}
