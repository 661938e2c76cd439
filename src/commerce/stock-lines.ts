// An order's lines as stock sees them: physical (units on a shelf), digital (codes) or untracked (not in the catalogue); pure.
import type { ProductRow } from './catalogue-repo.js';
import type { OrderLineRow } from './order-lines-repo.js';

export interface OrderStockLines {
  /** Lines with a catalogue product that is not digital: they need units on a shelf. */
  physical: { line: OrderLineRow; product: ProductRow }[];
  /** Lines of digital products (codes, not stock). */
  digital: { line: OrderLineRow; product: ProductRow }[];
  /** SKUs not in the catalogue: not stock-tracked. */
  untracked: OrderLineRow[];
}

/** Sorts the lines (in their order) by what their product is; `products` holds the catalogue's products by SKU. */
export function classifyStockLines(lines: readonly OrderLineRow[], products: ReadonlyMap<string, ProductRow>): OrderStockLines {
  const out: OrderStockLines = { physical: [], digital: [], untracked: [] };
  for (const line of lines) {
    const product = products.get(line.sku);
    if (!product) out.untracked.push(line);
    else (product.digital ? out.digital : out.physical).push({ line, product });
  }
  return out;
}
