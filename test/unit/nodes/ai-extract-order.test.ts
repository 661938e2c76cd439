// Tests for `ai.extract_order` over its ports (docs/commerce.md "Ports"): the order extractor port reads the document
// only when the step asks for the model and one is configured; otherwise the deterministic parser does.
import { describe, expect, it } from 'vitest';
import { aiExtractOrder, type ExtractOrderParams } from '../../../src/nodes/ai-extract-order.js';
import type { OrderLineRow } from '../../../src/commerce/order-lines-repo.js';
import type { StepResult } from '../../../src/engine/node-type.js';
import { stepContext, testOrder, testPorts, type SomePorts } from './step-context.js';

const DOCUMENT = 'Please send 3 x MUG-1 and 2 x TEE-BLK-M';
const SKUS = ['MUG-1', 'TEE-BLK-M'];

type Appended = { sku: string; name: string | null; qty: number; unitPriceMinor: number | null }[];

/** Runs the step on an order without lines whose inbound document is DOCUMENT; returns its result, what it appended and the model's calls. */
async function extract(params: ExtractOrderParams, extractor: SomePorts['orderExtractor'], existing: OrderLineRow[] = []) {
  const appended: Appended[] = [];
  const ports = testPorts({
    orderLines: {
      read: (_orderId, opts) => Promise.resolve(opts?.includeDropped ? existing : []),
      append: (_orderId, lines) => {
        appended.push([...lines]);
        return Promise.resolve();
      },
    },
    documents: { inboundText: () => Promise.resolve(DOCUMENT) },
    catalogue: { skus: () => Promise.resolve(SKUS) },
    ...(extractor ? { orderExtractor: extractor } : {}),
  });
  const result = (await aiExtractOrder.run!(stepContext(params, { order: testOrder({ currency: 'EUR' }), ports }))) as StepResult;
  return { result, appended };
}

describe('ai.extract_order', () => {
  it('with useModel and a configured model, the model reads the document (given the catalogue SKUs and the currency); its name is the method', async () => {
    const asked: { text: string; hints: { knownSkus: readonly string[]; currency: string } }[] = [];
    const { result, appended } = await extract({ useModel: true }, {
      extract: (text, hints) => {
        asked.push({ text, hints });
        return Promise.resolve({ model: 'test-model', lines: [{ sku: 'MUG-1', qty: 7, unitPrice: 9.5, name: 'Mug' }] });
      },
    });
    expect(asked).toEqual([{ text: DOCUMENT, hints: { knownSkus: SKUS, currency: 'EUR' } }]);
    expect(result.output).toEqual({ method: 'test-model', lines: [{ sku: 'MUG-1', qty: 7, unitPrice: 9.5, name: 'Mug' }], skipped: [] });
    expect(result.summary).toBe('Read 1 line(s) from the document (test-model)');
    expect(appended).toEqual([[{ sku: 'MUG-1', name: 'Mug', qty: 7, unitPriceMinor: 950 }]]);
  });

  it('with useModel and no model configured (the port answers null), the parser reads the document', async () => {
    const { result, appended } = await extract({ useModel: true }, { extract: () => Promise.resolve(null) });
    expect(result.output).toMatchObject({ method: 'parser', lines: [{ sku: 'MUG-1', qty: 3 }, { sku: 'TEE-BLK-M', qty: 2 }] });
    expect(appended).toHaveLength(1);
  });

  it('without useModel the model is not asked (the extractor port is not touched): the parser reads the document', async () => {
    const { result } = await extract({ useModel: false }, undefined);
    expect(result.output).toMatchObject({ method: 'parser' });
  });

  it('an order that already has lines (dropped ones count) passes unchanged: nothing read, nothing appended', async () => {
    const line: OrderLineRow = { lineNo: 1, sku: 'MUG-1', name: null, qty: 1, unitPriceMinor: 1250, sellerId: null, locationId: null, dropped: true };
    const { result, appended } = await extract({ useModel: true }, undefined, [line]);
    expect(result).toEqual({ branch: 'ok', output: { method: 'input', lines: [], skipped: [] }, summary: 'Order has 1 line(s); nothing to extract' });
    expect(appended).toEqual([]);
  });
});
