// Requests that once broke a route (found by the hostile-input runs); replayed on every run so they stay fixed.
import type { HostileBody } from './schema-arbitrary.js';

export interface RecordedCase {
  method: 'post' | 'put' | 'patch';
  /** The route path as registered. */
  route: string;
  /** The path sent; default the route with `:id` an order waiting for an event and `:nodeId` its wait. */
  path?: string;
  body: HostileBody;
  /** What went wrong before the fix, and the seed that found it. */
  was: string;
}

const deep = (n: number) => '{"k":'.repeat(n) + '1' + '}'.repeat(n);

export const RECORDED_CASES: RecordedCase[] = [
  {
    method: 'post',
    route: '/api/v1/orders',
    body: { json: { flowId: 'tpl-pos-sale', version: 3426645222350310, input: { model: 'd2c', title: 'ᔌᖦ', externalId: 'ext-2', currency: 'VCE' } } },
    was: '500: a version past PostgreSQL integer range reached the flow_versions query (seed 20261122)',
  },
  {
    method: 'post',
    route: '/api/v1/channels/:platformName/orders',
    path: '/api/v1/channels/fuzzshop/orders',
    body: { json: { id: 12345678901234567000, email: 'a\u0000b', currency: 'usd' } },
    was: '500: a NUL character in the payload email reached a SQL parameter (seed 20261122)',
  },
  {
    method: 'post',
    route: '/api/v1/orders/:id/events',
    path: '/api/v1/orders/a%00b/events',
    body: { json: { event: 'payment.received', payload: { '\uFEFF': 'Ω≈ç√∫' } } },
    was: '500: a NUL character in the order id path parameter reached the order lock (seed 18926918)',
  },
  {
    method: 'post',
    route: '/api/v1/orders',
    body: { raw: `{"flowId":"tpl-pos-sale","input":{"model":"b2c","channel":"pos","lines":[{"sku":"MUG-1","qty":1}]},"vars":${deep(5_000)}}` },
    was: '500: RangeError (call stack) in JSON.stringify and the idempotency fingerprint for deeply nested vars',
  },
  {
    method: 'post',
    route: '/api/v1/orders/:id/events',
    body: { raw: `{"event":"fuzz.go","payload":${deep(20_000)}}` },
    was: '500: RangeError (call stack) for a deeply nested event payload',
  },
];
