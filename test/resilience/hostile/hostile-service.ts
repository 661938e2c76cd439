// The service the hostile-input tests aim at: in-process, with an order at an approval and one at an event wait,
// an integration and a platform secret for the signed routes, and its background loops stopped so that every
// change in the database comes from the request under test.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HttpRoute } from '../../../src/http/route.js';
import { startTestService, type ApiResponse, type TestService } from '../../support/test-service.js';
import { writeLoadWorkspace } from '../support/workspace-file.js';
import { changedTables, dbFingerprint, type Fingerprint } from './db-fingerprint.js';
import type { Hints, HostileBody } from './schema-arbitrary.js';

export const PLATFORM_NAME = 'fuzzshop';
export const PLATFORM_SECRET = 'fuzz-platform-client-secret';

export interface HostileService {
  t: TestService;
  /** Ids the path parameters may take besides random ones. */
  ids: { waitingOrder: string; approvalOrder: string; flow: string; person: string; subscription: string; integration: string };
  integrationSecret: string;
  hints: Hints;
  /** Routes whose request body is JSON (validated by a zod schema, or parsed by the handler after a signature check). */
  jsonRoutes(): HttpRoute[];
  /** Sends `body` to the route; signs it when the route authenticates itself. */
  send(route: HttpRoute, pathname: string, body: HostileBody, extraHeaders?: Record<string, string>): Promise<ApiResponse>;
  fingerprint(): Promise<Fingerprint>;
  changedSince(before: Fingerprint): Promise<string[]>;
  close(): Promise<void>;
}

/** The signature header of the signed inbound routes (spec "Signed events route"). */
export function serviceSignature(integrationId: string, secret: string, nowMs: number, raw: string): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},k=${integrationId},v1=${createHmac('sha256', secret).update(`${t}.`).update(raw).digest('hex')}`;
}

/** The storefront platform's HMAC header (base64 HMAC-SHA256 of the raw body). */
export function platformHmac(raw: string, secret = PLATFORM_SECRET): string {
  return createHmac('sha256', secret).update(raw).digest('base64');
}

const isJsonRoute = (r: HttpRoute) =>
  ['post', 'put', 'patch'].includes(r.method) && (r.body !== undefined || (r.rawBody?.contentTypes.some((c) => /json/.test(c)) ?? false));

export interface HostileServiceOptions {
  /** Extra environment (TRUST_PROXY, connection limits). */
  env?: Record<string, string>;
  /** Collects the service's log records (to prove no error was logged). */
  logRecords?: Record<string, unknown>[];
}

export async function startHostileService(options: HostileServiceOptions = {}): Promise<HostileService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-hostile-'));
  const workspace = writeLoadWorkspace(dir, { platform: { name: PLATFORM_NAME, clientSecret: PLATFORM_SECRET } });
  const t = await startTestService({ env: { WORKSPACE_FILE: workspace, ...options.env }, redis: false, logRecords: options.logRecords });
  const must = async (res: Promise<ApiResponse>, status: number[], what: string) => {
    const r = await res;
    if (!status.includes(r.status)) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };

  // A flow with an approval, then an event wait; two orders parked at each.
  const graph = {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'review', type: 'human.approval', params: { title: 'Fuzz review', timeout: '2d' } },
      { id: 'go', type: 'wait.event', params: { event: 'fuzz.go', timeout: '2d' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'no', type: 'end', params: { outcome: 'declined', reason: 'rejected' } },
    ],
    edges: [
      { from: 'start', to: 'review' },
      { from: 'review', to: 'go', branch: 'approved' },
      { from: 'review', to: 'no', branch: 'rejected' },
      { from: 'review', to: 'no', branch: 'escalated' },
      { from: 'go', to: 'done', branch: 'received' },
      { from: 'go', to: 'no', branch: 'timeout' },
    ],
  };
  await must(t.call('PUT', '/api/v1/flows/fuzz-flow', { name: 'Fuzz flow', graph }), [200], 'save fuzz flow');
  await must(t.call('POST', '/api/v1/flows/fuzz-flow/publish'), [200], 'publish fuzz flow');
  const start = () => must(t.call('POST', '/api/v1/orders', { flowId: 'fuzz-flow', input: { model: 'b2c' } }), [201], 'start fuzz order');
  const approvalOrder = (await start()).orderId as string;
  const waitingOrder = (await start()).orderId as string;
  await must(t.call('POST', `/api/v1/orders/${waitingOrder}/approvals/review`, { decision: 'approved' }), [200], 'approve');
  const person = (await must(t.call('POST', '/api/v1/team', { email: 'fuzz.person@example.com', role: 'viewer' }), [201], 'add person')) as any;
  const sub = (await must(t.call('POST', '/api/v1/webhook-subscriptions', { url: 'https://hooks.example.invalid/fuzz' }), [201], 'subscribe')) as any;
  const integration = (await must(
    t.call('POST', '/api/v1/integrations', { name: 'fuzz', events: ['*'], startOrders: true, flows: ['*'] }),
    [201],
    'create integration',
  )) as any;

  // Nothing runs behind the requests' backs from here on: no timer fires, no outbox dispatch.
  const engine = t.service.ctx.engine!;
  await engine.scheduler.stop();
  await engine.outbox.stop();

  const ids = {
    waitingOrder,
    approvalOrder,
    flow: 'fuzz-flow',
    person: person.person?.id ?? person.id,
    subscription: sub.subscription.id,
    integration: integration.integration.id,
  };
  const hints: Hints = {
    flowId: ['fuzz-flow', 'tpl-pos-sale', 'tpl-marketplace-order', 'tpl-storefront-order'],
    orderId: [waitingOrder, approvalOrder],
    event: ['fuzz.go', 'seller.responded', 'payment.received'],
    sku: ['MUG-1', 'PAN-CAST-10', 'TENT-2P'],
    sellerId: ['seller_acme', 'seller_bolt', 'seller_dormant'],
    customerId: ['cust_1', 'cust_corp'],
    currency: ['USD', 'EUR', 'JPY', 'XXX'],
    channel: ['web', 'api', 'pos', 'marketplace'],
    model: ['b2c', 'b2b', 'marketplace'],
    url: ['https://hooks.example.invalid/a', 'http://localhost/x', 'http://10.0.0.1/x'],
    email: ['fuzz.other@example.com', 'FUZZ.PERSON@example.com'],
    externalId: ['ext-1', 'ext-2'],
    locationId: ['loc_main', 'store_soho'],
  };

  const send = (route: HttpRoute, pathname: string, body: HostileBody, extraHeaders: Record<string, string> = {}) => {
    const raw = 'json' in body ? (JSON.stringify(body.json) ?? 'null') : body.raw;
    const headers: Record<string, string> = { 'content-type': 'raw' in body && body.contentType ? body.contentType : 'application/json' };
    if (route.path === '/api/v1/webhooks/events' || route.path === '/api/v1/webhooks/orders')
      headers['x-service-signature'] = serviceSignature(ids.integration, integration.secret, t.service.ctx.clock.now(), raw);
    if (route.path.startsWith('/api/v1/channels/') && route.path.endsWith('/orders')) {
      headers['x-platform-hmac-sha256'] = platformHmac(raw);
      headers['x-platform-topic'] = 'orders/create';
    }
    return t.call(route.method, pathname, undefined, { raw, headers: { ...headers, ...extraHeaders }, token: route.access === 'self' ? null : undefined });
  };

  return {
    t,
    ids,
    integrationSecret: integration.secret,
    hints,
    jsonRoutes: () => t.service.ctx.routes.filter(isJsonRoute),
    send,
    fingerprint: () => dbFingerprint(t.service.ctx.db),
    changedSince: async (before) => changedTables(before, await dbFingerprint(t.service.ctx.db)),
    close: () => t.close(),
  };
}

/** A short stable label of a body for failure messages (bodies can be megabytes). */
export function describeBody(body: HostileBody): string {
  const text = 'json' in body ? (JSON.stringify(body.json) ?? 'undefined') : `raw(${body.contentType ?? 'json'}): ${body.raw}`;
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 12)})` : text;
}
