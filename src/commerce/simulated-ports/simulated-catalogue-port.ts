// Port `catalogue` in a simulation: products, sellers and locations as the snapshot read them (reference data: read only).
import type { LocationRow, ProductRow, SellerProfile } from '../catalogue-repo.js';
import type { CataloguePort } from '../ports/catalogue-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedCataloguePort(ledger: SimulatedLedger): CataloguePort {
  return {
    productsBySku: (skus) => {
      const out = new Map<string, ProductRow>();
      for (const sku of skus) {
        const product = ledger.products.get(sku);
        if (product) out.set(sku, { ...product });
      }
      return Promise.resolve(out);
    },
    sellersById: (ids) => {
      const out = new Map<string, SellerProfile>();
      for (const id of ids) {
        const seller = ledger.sellers.get(id);
        if (seller) out.set(id, { ...seller });
      }
      return Promise.resolve(out);
    },
    locationsById: () => {
      const ids = [...ledger.locations.keys()].sort();
      return Promise.resolve(new Map<string, LocationRow>(ids.map((id) => [id, { ...ledger.locations.get(id)! }])));
    },
    skus: () => Promise.resolve([...ledger.skus]),
  };
}
