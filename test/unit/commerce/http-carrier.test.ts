// The HTTP carrier's requests and answers (docs/integrations.md): one booking per ship step, shipments in parcel order, cancel by carrier ids.
import { describe, expect, it } from 'vitest';
import type { ExternalAnswer } from '../../../src/engine/node-type.js';
import { RetryableError, TerminalError } from '../../../src/domain/errors.js';
import { cancelShipmentsRequest, shipmentsAnswer, shipmentsRequest } from '../../../src/commerce/http-carrier.js';

const adapter = { url: 'https://carrier.example.com', secret: null, timeoutMs: 10_000 };
const answer = (status: number | null, body: unknown = null): ExternalAnswer => ({ status, body, error: status === null ? 'refused' : null, terminal: false, attempt: 1, idempotencyKey: 'oo-1' });

describe('http carrier', () => {
  it('books every parcel of a step in one request: service, ship-to and lines per location', () => {
    const req = shipmentsRequest(adapter, {
      orderId: 'ord_1',
      service: 'express',
      shipTo: { city: 'Reno' },
      parcels: [
        { locationId: 'loc_main', lines: [{ lineNo: 1, sku: 'MUG-1', qty: 2 }] },
        { locationId: 'loc_west', lines: [{ lineNo: 3, sku: 'TENT-2P', qty: 1 }] },
      ],
    });
    expect(req).toEqual({
      method: 'POST',
      url: 'https://carrier.example.com/shipments',
      headers: {},
      body: {
        orderId: 'ord_1',
        service: 'express',
        shipTo: { city: 'Reno' },
        parcels: [
          { locationId: 'loc_main', lines: [{ lineNo: 1, sku: 'MUG-1', qty: 2 }] },
          { locationId: 'loc_west', lines: [{ lineNo: 3, sku: 'TENT-2P', qty: 1 }] },
        ],
      },
      timeoutMs: 10_000,
      signWith: null,
    });
    expect(shipmentsRequest(adapter, { orderId: 'ord_1', service: 'ground', shipTo: undefined, parcels: [] }).body).toMatchObject({ shipTo: null });
  });

  it('the answer gives one shipment per parcel, in parcel order', () => {
    const got = shipmentsAnswer(answer(201, { shipments: [{ id: 's1', carrier: 'UPS', trackingNumber: '1Z1' }, { id: 's2', carrier: 'UPS', trackingNumber: '1Z2' }] }), 2);
    expect(got).toEqual([
      { carrierRef: 's1', carrier: 'UPS', trackingNumber: '1Z1' },
      { carrierRef: 's2', carrier: 'UPS', trackingNumber: '1Z2' },
    ]);
  });

  it('a refusal (4xx) is terminal, an outage retryable, a short list or a missing tracking number terminal', () => {
    expect(() => shipmentsAnswer(answer(422, { message: 'No service to PO boxes' }), 1)).toThrow(new TerminalError('The carrier refused the shipment (HTTP 422: No service to PO boxes)', 'shipment_refused'));
    expect(() => shipmentsAnswer(answer(503), 1)).toThrow(RetryableError);
    expect(() => shipmentsAnswer(answer(null), 1)).toThrow(RetryableError);
    expect(() => shipmentsAnswer(answer(200, { shipments: [] }), 1)).toThrow(/not a list of 1/);
    expect(() => shipmentsAnswer(answer(200, { shipments: [{ id: 's1', carrier: 'UPS' }] }), 1)).toThrow(/no `shipments\[0\].trackingNumber`/);
  });

  it('a cancel names the carrier ids of the step in one request', () => {
    expect(cancelShipmentsRequest(adapter, { orderId: 'ord_1', carrierRefs: ['s1', 's2'] })).toMatchObject({
      url: 'https://carrier.example.com/shipments/cancel',
      body: { orderId: 'ord_1', shipments: ['s1', 's2'] },
    });
  });
});
