// The editor's sample order for a simulation: the flow's model and first channel, lines of products the workspace has.
import type { OperationOutput } from '../../application/operation-types.js';

type Product = OperationOutput<'listProducts'>['products'][number];

/**
 * An order input a simulation of the flow can start with (POST /api/v1/orders' `input`): the flow's model
 * (b2c without one), its first channel, and two products with stock; a marketplace takes them from
 * third-party sellers first, so the acceptance loop has someone to wait for.
 */
export function sampleInput(flow: { model: string | null; channels: readonly string[] } | null, products: readonly Product[]): Record<string, unknown> {
  const model = flow?.model ?? 'b2c';
  const stocked = products.filter((p) => p.available > 0);
  const pool = model === 'marketplace' ? [...stocked.filter((p) => p.sellerId !== null), ...stocked.filter((p) => p.sellerId === null)] : stocked;
  const lines = pool.slice(0, 2).map((p) => ({ sku: p.sku, qty: 1 }));
  return {
    model,
    ...(flow?.channels[0] ? { channel: flow.channels[0] } : {}),
    title: 'Simulated order',
    currency: 'USD',
    lines: lines.length ? lines : [{ sku: 'SAMPLE-1', qty: 1, unitPrice: 10 }],
  };
}
