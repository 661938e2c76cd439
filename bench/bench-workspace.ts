// The workspace file a bench service starts with: the demo workspace, stock that cannot run out, and the
// bench catalogue (many SKUs per seller, so concurrent orders do not all lock the same stock rows).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoWorkspacePath } from '../src/config/config.js';
import { BENCH_PRODUCT_CLASSES, benchSku } from './marketplace-order.js';

/** Units on hand per SKU and location: far more than any bench run orders. */
export const BENCH_STOCK = 100_000_000;

export interface BenchWorkspaceOptions {
  /** SKUs per seller class in the bench catalogue (1 = only the demo SKUs). */
  skus: number;
  /** Overrides the demo's 14-day return window (0 = the payout timer is due at once). */
  returnWindowDays?: number;
}

interface WorkspaceProduct {
  sku: string;
  name: string;
  price: number;
  sellerId?: string;
  digital?: boolean;
  stock?: Record<string, number>;
}

/** Writes the bench workspace to a temporary file and returns its path. */
export function writeBenchWorkspace(options: BenchWorkspaceOptions): string {
  const ws = JSON.parse(readFileSync(demoWorkspacePath, 'utf8')) as { products: WorkspaceProduct[]; returnWindowDays?: number };
  for (const p of ws.products) {
    if (p.digital || !p.stock) continue;
    for (const loc of Object.keys(p.stock)) p.stock[loc] = BENCH_STOCK;
  }
  if (options.skus > 1)
    for (const c of BENCH_PRODUCT_CLASSES)
      for (let i = 0; i < options.skus; i++)
        ws.products.push({
          sku: benchSku(c.prefix, i),
          name: `Bench ${c.prefix.slice(6, -1).toLowerCase()} ${i}`,
          price: c.price,
          ...(c.sellerId ? { sellerId: c.sellerId } : {}),
          stock: { [c.location]: BENCH_STOCK },
        });
  if (options.returnWindowDays !== undefined) ws.returnWindowDays = options.returnWindowDays;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-bench-ws-'));
  const file = path.join(dir, 'workspace.json');
  writeFileSync(file, JSON.stringify(ws, null, 2));
  return file;
}
