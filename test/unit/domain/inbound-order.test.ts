// Unit tests for mapping a signed inbound body to a start (spec "Signed inbound orders route": source and shipTo kept in meta).
import { describe, expect, it } from 'vitest';
import { inboundToStart } from '../../../src/domain/inbound-order.js';
import { inboundOrderBodySchema } from '../../../src/domain/order-input-schema.js';

describe('spec "Signed inbound orders route": source -> meta.source, shipTo -> meta.shipTo, meta.via', () => {
  it('moves inbound-only fields into meta and leaves flowId and vars outside the input', () => {
    const body = inboundOrderBodySchema.parse({
      model: 'b2c', channel: 'web', externalId: 'E1', lines: [{ sku: 'A', qty: 1 }],
      flowId: 'tpl-storefront-order', source: 'shop', shipTo: 'PO Box 1', vars: { v: 1 }, meta: { keep: true, source: 'old' },
    });
    const start = inboundToStart(body);
    expect(start.flowId).toBe('tpl-storefront-order');
    expect(start.vars).toEqual({ v: 1 });
    expect(start.input).toMatchObject({ model: 'b2c', channel: 'web', externalId: 'E1', currency: 'USD' });
    expect(start.input.meta).toEqual({ keep: true, source: 'shop', shipTo: 'PO Box 1', via: 'webhook' });
    expect('flowId' in start.input || 'source' in start.input || 'shipTo' in start.input || 'vars' in start.input).toBe(false);
  });

  it('without flowId the start carries none (routing decides)', () => {
    const body = inboundOrderBodySchema.parse({ model: 'b2b', channel: 'edi', externalId: 'S:1', documentText: 'x' });
    const start = inboundToStart(body, 'edi');
    expect('flowId' in start).toBe(false);
    expect(start.input.meta).toEqual({ via: 'edi' });
  });
});
