// The order extractor port (docs/commerce.md "Ports"): a deployment or a test supplies a language model through
// StartOptions.engine.ports; `ai.extract_order` with useModel then reads the order's document with it, inside the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e, n, startEngineHarness, type EngineHarness } from '../../support/engine-harness.js';
import { testEffect } from '../../support/test-node-types.js';
import type { OrderExtractorPort } from '../../../src/commerce/ports/order-extractor-port.js';

/** What the supplied model was asked. */
const asked: { text: string; knownSkus: readonly string[]; currency: string }[] = [];

/** A model that reads every document as 2 x MUG-1 at 9.00 (whatever it says), so its use is visible. */
const model: OrderExtractorPort = {
  extract: (text, hints) => {
    asked.push({ text, ...hints });
    return Promise.resolve({ model: 'test-model', lines: [{ sku: 'MUG-1', qty: 2, unitPrice: 9, name: 'Mug (model)' }] });
  },
};

let h: EngineHarness;
let modelVersion: number;
let parserVersion: number;
beforeAll(async () => {
  h = await startEngineHarness({ start: { engine: { nodeTypes: [testEffect], builtinFlows: false, ports: () => ({ orderExtractor: model }) } } });
  const flow = (useModel: boolean) => ({
    nodes: [n('start', 'trigger.api'), n('extract', 'ai.extract_order', { useModel }), n('done', 'end', { outcome: 'completed' })],
    edges: [e('start', 'extract'), e('extract', 'done')],
  });
  modelVersion = await h.publish('extract-with-model', flow(true));
  parserVersion = await h.publish('extract-with-parser', flow(false));
});
afterAll(async () => {
  await h?.close();
});

const lines = async (orderId: string) =>
  (await h.t.service.ctx.db.query('SELECT sku, qty, unit_price_minor::int AS unit, name FROM order_lines WHERE order_id = $1 ORDER BY line_no', [orderId])).rows;

describe('a supplied order extractor port', () => {
  it('useModel: the supplied model reads the document (with the catalogue SKUs and the order currency); its lines are the order lines', async () => {
    asked.length = 0;
    const id = await h.startOrder('extract-with-model', modelVersion, { currency: 'EUR', fxRate: 0.92, input: { documentText: 'Please send 5 x TEE-BLK-M' } });
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.extract.output).toEqual({ method: 'test-model', lines: [{ sku: 'MUG-1', qty: 2, unitPrice: 9, name: 'Mug (model)' }], skipped: [] });
    const skus = (await h.t.service.ctx.db.query<{ sku: string }>('SELECT sku FROM products ORDER BY sku')).rows.map((r) => r.sku);
    expect(asked).toEqual([{ text: 'Please send 5 x TEE-BLK-M', knownSkus: skus, currency: 'EUR' }]);
    expect(await lines(id)).toEqual([{ sku: 'MUG-1', qty: 2, unit: 900, name: 'Mug (model)' }]);
  });

  it('without useModel the model is not asked: the parser reads the document', async () => {
    asked.length = 0;
    const id = await h.startOrder('extract-with-parser', parserVersion, { input: { documentText: 'Please send 5 x TEE-BLK-M' } });
    const s = await h.state(id);
    expect(s.status).toBe('completed');
    expect(s.nodes.extract.output).toMatchObject({ method: 'parser', lines: [{ sku: 'TEE-BLK-M', qty: 5 }] });
    expect(asked).toEqual([]);
    expect(await lines(id)).toEqual([{ sku: 'TEE-BLK-M', qty: 5, unit: null, name: null }]);
  });
});
