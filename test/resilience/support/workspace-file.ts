// A workspace file for the resilience runs: the demo workspace with deep stock, so load never runs out of units.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../support/child-service.js';

/** Units on hand per location of each load SKU when the workspace is first applied. */
export const LOAD_STOCK = 1_000_000;
export const LOAD_SKUS = ['PAN-CAST-10', 'TENT-2P', 'MUG-1'] as const;
export const INITIAL_ON_HAND: Record<string, number> = Object.fromEntries(LOAD_SKUS.map((s) => [s, LOAD_STOCK]));

/** Writes `<dir>/workspace.json` (demo workspace, deep stock, plus `overrides`) and returns its path. */
export function writeLoadWorkspace(dir: string, overrides: Record<string, unknown> = {}): string {
  const demo = JSON.parse(readFileSync(path.join(projectRoot, 'src/config/demo-workspace.json'), 'utf8')) as {
    products: { sku: string; stock?: Record<string, number> }[];
  };
  for (const p of demo.products)
    if ((LOAD_SKUS as readonly string[]).includes(p.sku)) p.stock = Object.fromEntries(Object.keys(p.stock ?? {}).map((loc) => [loc, LOAD_STOCK]));
  const file = path.join(dir, 'workspace.json');
  writeFileSync(file, JSON.stringify({ ...demo, ...overrides }, null, 2));
  return file;
}
