// Port `catalogue`: products, sellers and locations as steps read them (reference data, cached per version).
import type { LocationRow, ProductRow, SellerProfile } from '../catalogue-repo.js';

export interface CataloguePort {
  /** The catalogue's products of these SKUs, by SKU (a SKU without a product is absent). */
  productsBySku(skus: readonly string[]): Promise<Map<string, ProductRow>>;
  /** Sellers by id (an unknown id is absent). */
  sellersById(ids: readonly string[]): Promise<Map<string, SellerProfile>>;
  /** Every stock location, by id. */
  locationsById(): Promise<Map<string, LocationRow>>;
  /** Every SKU of the catalogue, sorted (what a document reader may recognise). */
  skus(): Promise<string[]>;
}
