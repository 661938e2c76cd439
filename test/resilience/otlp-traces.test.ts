// Traces (issue "Operability"): with OTEL_EXPORTER_OTLP_ENDPOINT set, `npm start` exports OTLP spans to a local receiver:
// a server span per request named by route, a span per command with child spans per step and SQL, parent links intact,
// the caller's traceparent honoured, and outbound webhooks carrying a traceparent of an exported span; no query string
// (search terms, OAuth parameters) in any span.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killGroup, startChild, type ChildService } from '../support/child-service.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

const PASSWORD = 'otlp-workspace-password-0123';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP JSON trace receiver and a webhook receiver on one local server. */
async function startReceiver() {
  const spans: Span[] = [];
  const hooks: { headers: http.IncomingHttpHeaders; body: any }[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (req.url === '/v1/traces') {
        contentTypes.add(String(req.headers['content-type']));
        const body = JSON.parse(text);
        for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        hooks.push({ headers: req.headers, body: JSON.parse(text) });
        res.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, spans, hooks, contentTypes, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let child: ChildService | null = null;
let database: TestDatabase | null = null;
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oo-otlp-'));
afterAll(async () => {
  if (child) killGroup(child, 'SIGKILL');
  await receiver?.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Polls (bounded) until `pick` finds something; spans leave the service in batches. */
async function eventually<T>(pick: () => T | undefined | null | false, what: string, limitMs = 20_000): Promise<T> {
  for (let waited = 0; waited < limitMs; waited += 100) {
    const found = pick();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`never saw ${what}`);
}

const attr = (span: Span, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

describe('OpenTelemetry traces', () => {
  it('a marketplace order start exports POST /api/v1/orders > order.start > step … > SQL spans, under the caller traceparent; its webhooks carry traceparent', async () => {
    receiver = await startReceiver();
    database = await createTestDatabase();
    child = startChild({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: undefined,
      DATA_DIR: dataDir,
      WORKSPACE_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      OUTBOUND_ALLOW_LOOPBACK: '1',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    const base = await child.ready;
    const call = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) =>
      fetch(base + p, {
        method,
        headers: { authorization: `Bearer ${PASSWORD}`, 'content-type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call('POST', '/api/v1/webhook-subscriptions', { url: `${receiver.url}/hook` })).status).toBe(201);

    // The caller's own trace: the service's spans join it.
    const callerTrace = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const callerSpan = '0102030405060708';
    const res = await call(
      'POST',
      '/api/v1/orders',
      { flowId: 'tpl-marketplace-order', input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines: [{ sku: 'MUG-1', qty: 1 }] } },
      { traceparent: `00-${callerTrace}-${callerSpan}-01` },
    );
    expect(res.status).toBe(201);
    const { orderId } = (await res.json()) as { orderId: string };
    const spans = receiver.spans;

    const server = await eventually(() => spans.find((s) => s.name === 'POST /api/v1/orders'), 'the server span');
    expect(server.traceId).toBe(callerTrace);
    expect(server.parentSpanId).toBe(callerSpan);
    expect(attr(server, 'http.route')).toBe('/api/v1/orders');

    const command = await eventually(() => spans.find((s) => s.name === 'order.start' && attr(s, 'order.id') === orderId), 'the command span');
    expect(command.traceId).toBe(callerTrace);
    // The command runs inside the request: its parent is the server span or a span under it in the same trace.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const ancestors = (s: Span): string[] => {
      const out: string[] = [];
      for (let p = s.parentSpanId && byId.get(s.parentSpanId); p; p = p.parentSpanId ? byId.get(p.parentSpanId) : undefined) out.push(p.name);
      return out;
    };
    expect(ancestors(command)).toContain('POST /api/v1/orders');

    const steps = await eventually(() => {
      const found = spans.filter((s) => s.name.startsWith('step ') && attr(s, 'order.id') === orderId);
      return found.length >= 2 ? found : null;
    }, 'step spans');
    for (const step of steps) expect(step.parentSpanId).toBe(command.spanId);
    expect(steps.map((s) => s.name)).toEqual(expect.arrayContaining(['step commerce.fraud_score']));

    // SQL spans from the pg instrumentation nest under the command or its steps.
    const sql = spans.filter((s) => s.traceId === callerTrace && s.parentSpanId && [command.spanId, ...steps.map((st) => st.spanId)].includes(s.parentSpanId) && !s.name.startsWith('step '));
    expect(sql.length).toBeGreaterThan(0);
    expect(sql.some((s) => attr(s, 'db.system') === 'postgresql' || attr(s, 'db.system.name') === 'postgresql')).toBe(true);

    // Outbound webhooks carry a W3C traceparent naming a span the service exported.
    const hook = await eventually(() => receiver!.hooks.find((h) => h.body?.orderId === orderId), 'a webhook of the order');
    const traceparent = String(hook.headers.traceparent ?? '');
    expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    const [, traceId, parentId] = traceparent.split('-');
    const parent = await eventually(() => spans.find((s) => s.traceId === traceId && s.spanId === parentId), 'the span named by the webhook traceparent');
    expect(parent.name).toMatch(/webhook\.deliver|POST/);
    expect([...receiver.contentTypes]).toEqual(['application/json']);
  });

  it('server spans carry no query string: an order search term and OAuth authorize parameters appear in no attribute; health probes are not traced', async () => {
    const base = await child!.ready;
    const spans = receiver!.spans;
    const search = await fetch(`${base}/api/v1/orders?q=QUERYSECRET123&limit=5`, { headers: { authorization: `Bearer ${PASSWORD}` } });
    expect(search.status).toBe(200);
    await fetch(`${base}/oauth/authorize?client_id=nonexistent&state=STATESECRET456&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&code_challenge=CHALLENGESECRET789`);
    await fetch(`${base}/health`);
    killGroup(child!, 'SIGTERM');
    await child!.exited;
    const server = spans.filter((s) => /^GET\b/.test(s.name));
    expect(server.some((s) => attr(s, 'url.path') === '/api/v1/orders')).toBe(true);
    expect(server.some((s) => String(attr(s, 'url.path') ?? '').startsWith('/oauth/authorize'))).toBe(true);
    const exported = JSON.stringify(spans);
    expect(['QUERYSECRET123', 'STATESECRET456', 'CHALLENGESECRET789'].filter((secret) => exported.includes(secret))).toEqual([]);
    expect(spans.some((s) => s.name.includes('/health'))).toBe(false);
  });
});
