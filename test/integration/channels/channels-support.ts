// Shared helpers for the channel suites: a service on a workspace with a platform secret and routes, integrations, signed calls.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoWorkspacePath } from '../../../src/config/config.js';
import { startTestService, type ApiResponse, type TestService, type TestServiceOptions } from '../../support/test-service.js';
import { signatureHeaderFor, signRequest } from '../../../src/channels/signed/signature-header.js';
import { e, n } from '../../support/engine-harness.js';

export { e, n };

export const PLATFORM_SECRET = 'shpss_test_client_secret_0123456789';
export const PLATFORM_NAME = 'shopify';

/** A service with the built-in flows, on the demo workspace plus `extra` (platform secret by default). */
export async function startChannelsService(
  extra: Record<string, unknown> = { platform: { clientSecret: PLATFORM_SECRET, name: PLATFORM_NAME } },
  options: TestServiceOptions = {},
): Promise<TestService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'oo-channels-ws-'));
  const file = path.join(dir, 'workspace.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(demoWorkspacePath, 'utf8')), ...extra }));
  const t = await startTestService({ ...options, env: { WORKSPACE_FILE: file, ...options.env } });
  const close = t.close;
  return { ...t, close: async () => { await close(); rmSync(dir, { recursive: true, force: true }); } };
}

export interface TestIntegration {
  id: string;
  secret: string;
  name: string;
}

/** Creates an integration over REST (operator); returns its id and secret. */
export async function createIntegration(t: TestService, body: Record<string, unknown>): Promise<TestIntegration> {
  const res = await t.call('POST', '/api/v1/integrations', { name: `int-${Math.random().toString(36).slice(2, 8)}`, ...body });
  if (res.status !== 201) throw new Error(`integration: ${res.status} ${res.text}`);
  return { id: res.body.integration.id, secret: res.body.secret, name: res.body.integration.name };
}

export interface SignOptions {
  /** Override the signing time (epoch ms); default the service clock now. */
  at?: number;
  /** Sign with another secret. */
  secret?: string;
  /** Send this header instead of a computed one (null sends none). */
  header?: string | null;
}

/** The exact bytes and header of a signed request (to send the same request twice). */
export interface SignedRequest {
  raw: string;
  header: string | null;
}

/** Serialises `body` once and signs those bytes as the integration. */
export function signBody(t: TestService, integration: TestIntegration, body: unknown, o: SignOptions = {}): SignedRequest {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const header = o.header !== undefined ? o.header : signatureHeaderFor(integration.id, o.secret ?? integration.secret, o.at ?? t.service.ctx.clock.now(), raw);
  return { raw, header };
}

/** Sends a signed request as is (no bearer token). */
export function sendSigned(t: TestService, p: string, req: SignedRequest): Promise<ApiResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (req.header !== null) headers['x-service-signature'] = req.header;
  return t.call('POST', p, undefined, { token: null, raw: req.raw, headers });
}

/** Signs and sends in one go. */
export function signed(t: TestService, p: string, integration: TestIntegration, body: unknown, o: SignOptions = {}): Promise<ApiResponse> {
  return sendSigned(t, p, signBody(t, integration, body, o));
}

export { signRequest };

export { publishFlow } from '../../support/publish-flow.js';

/** Flows the channel suites run orders on. */
export const graphs = {
  /** Waits for `seller.responded` twice in a row (a duplicate delivery would answer the second wait). */
  twoWaits: {
    nodes: [
      n('start', 'trigger.webhook'),
      n('first', 'wait.event', { event: 'seller.responded', timeout: '3d' }),
      n('second', 'wait.event', { event: 'seller.responded', timeout: '3d' }),
      n('done', 'end', { outcome: 'completed' }),
      n('late', 'end', { outcome: 'cancelled', reason: 'No answer' }),
    ],
    edges: [e('start', 'first'), e('first', 'second', 'received'), e('first', 'late', 'timeout'), e('second', 'done', 'received'), e('second', 'late', 'timeout')],
  },
  /** Waits one minute before it listens for `payment.received`. */
  delayedWait: {
    nodes: [
      n('start', 'trigger.webhook'),
      n('pause', 'wait.delay', { duration: '1m' }),
      n('pay', 'wait.event', { event: 'payment.received', timeout: '3d' }),
      n('done', 'end', { outcome: 'completed' }),
      n('late', 'end', { outcome: 'cancelled', reason: 'No payment' }),
    ],
    edges: [e('start', 'pause'), e('pause', 'pay'), e('pay', 'done', 'received'), e('pay', 'late', 'timeout')],
  },
  /** Just the webhook trigger, then waits (so the trigger's summary and output can be read). */
  webhookTrigger: {
    nodes: [
      n('start', 'trigger.webhook'),
      n('hold', 'wait.event', { event: 'release', timeout: '3d' }),
      n('done', 'end', { outcome: 'completed' }),
      n('late', 'end', { outcome: 'cancelled', reason: 'Not released' }),
    ],
    edges: [e('start', 'hold'), e('hold', 'done', 'received'), e('hold', 'late', 'timeout')],
  },
};

/** Rows of a table matching a condition (direct database reads, to prove nothing else happened). */
export async function count(t: TestService, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.service.ctx.db.query(`SELECT count(*)::int AS n FROM ${sql}`, params);
  return rows[0].n;
}
