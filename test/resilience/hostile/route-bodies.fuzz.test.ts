// Hostile input on every JSON route (issue "Resilience"; spec "Errors", "Limits"): random and boundary bodies per
// the route's own zod schema never get a 5xx, and a 4xx changes nothing in the database. Signed routes are signed
// correctly so the body itself is what is tested. New routes join automatically (read from the running service).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDef } from '../../../src/http/route.js';
import { SIZES } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { describeBody, PLATFORM_NAME, startHostileService, type HostileService } from './hostile-service.js';
import { RECORDED_CASES } from './recorded-cases.js';
import { anyJson, bodyArb, HOSTILE_STRINGS, rawBodyArb, type HostileBody } from './schema-arbitrary.js';

let h: HostileService;
const seed = resilienceSeed('hostile route bodies');
beforeAll(async () => {
  h = await startHostileService();
}, 120_000);
afterAll(async () => {
  await h?.close();
});

/** A path parameter: a real id of the right kind most of the time, else something hostile. */
function paramArb(route: RouteDef, name: string): fc.Arbitrary<string> {
  const real: string[] =
    name === 'nodeId' ? ['review', 'go']
    : name === 'platformName' ? [PLATFORM_NAME, 'platform']
    : route.path.startsWith('/api/v1/orders/') ? [h.ids.waitingOrder, h.ids.approvalOrder]
    : route.path.startsWith('/api/v1/team/') ? [h.ids.person]
    : route.path.startsWith('/api/v1/flows/') ? [h.ids.flow]
    : route.path.startsWith('/api/v1/webhook-subscriptions/') ? [h.ids.subscription]
    : route.path.startsWith('/api/v1/integrations/') ? [h.ids.integration]
    : ['x'];
  return fc.oneof(
    { arbitrary: fc.constantFrom(...real), weight: 6 },
    { arbitrary: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length > 0)), fc.constant('x'.repeat(150))), weight: 2 },
  );
}

/**
 * Percent-encodes a path segment; a lone surrogate (which encodeURIComponent refuses) becomes the three bytes
 * UTF-8 would give it, which are not valid UTF-8: the server must refuse them cleanly too.
 */
function encodeSegment(value: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0)!;
    if (c >= 0xd800 && c <= 0xdfff) out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    else out += encodeURIComponent(ch);
  }
  return out;
}

function pathArb(route: RouteDef): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  if (names.length === 0) return fc.constant(route.path);
  return fc.tuple(...names.map((n) => paramArb(route, n))).map((values) =>
    names.reduce((p, n, i) => p.replace(`:${n}`, encodeSegment(values[i])), route.path),
  );
}

/** What a route's body looks like: its zod schema when it has one, else any JSON (the platform payload is free-form). */
function routeBodyArb(route: RouteDef): fc.Arbitrary<HostileBody> {
  const schema = route.body ?? route.rawBody?.schema;
  if (schema) return bodyArb(schema, { hints: h.hints });
  const item = fc.record({ sku: fc.oneof(fc.constantFrom('MUG-1', ''), anyJson()), title: anyJson(), quantity: fc.oneof(fc.integer(), anyJson()), price: fc.oneof(fc.constantFrom('12.50', 'x', '-1', '1e400'), anyJson()) }, { requiredKeys: [] });
  const platformLike = fc.record(
    { id: fc.oneof(fc.integer(), fc.constantFrom(Number.MAX_SAFE_INTEGER, 12345678901234567890), anyJson()), email: fc.oneof(fc.emailAddress(), anyJson()), currency: fc.oneof(fc.constantFrom('USD', 'EUR', 'usd'), anyJson()), line_items: fc.oneof(fc.array(item, { maxLength: 4 }), anyJson()), source_name: anyJson(), name: anyJson() },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { arbitrary: platformLike.map((json): HostileBody => ({ json })), weight: 4 },
    { arbitrary: anyJson().map((json): HostileBody => ({ json })), weight: 2 },
    { arbitrary: rawBodyArb(platformLike), weight: 1 },
  );
}

/** One request: never a 5xx (the service is healthy), always `{ error }` on a 4xx, and a 4xx changes no table. */
async function checkOne(route: RouteDef, pathname: string, body: HostileBody): Promise<number> {
  const before = await h.fingerprint();
  const res = await h.send(route, pathname, body);
  const where = `${route.method.toUpperCase()} ${pathname} with ${describeBody(body)}`;
  expect(res.status, `${where} answered ${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThan(0);
  expect(res.status, `${where} answered ${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    // Spec "Signed events route": a 409 for an event no node waits for is `{ delivered: false }`.
    const documentedShape = res.status === 409 && res.body?.delivered === false;
    if (!documentedShape) expect(typeof res.body?.error, `${where}: 4xx without { error }: ${res.text.slice(0, 200)}`).toBe('string');
    expect(await h.changedSince(before), `${where} answered ${res.status} but changed tables`).toEqual([]);
  }
  return res.status;
}

describe(`hostile bodies on every JSON route (seed ${seed}, ${SIZES.fuzzRuns} runs per route)`, () => {
  it('the service exposes JSON routes to fuzz, the signed ones included when present', () => {
    const paths = h.jsonRoutes().map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('post /api/v1/orders');
    expect(paths).toContain('post /api/v1/orders/:id/events');
  });

  it('recorded cases (failures found by earlier runs) stay fixed', async () => {
    for (const c of RECORDED_CASES) {
      const route = h.jsonRoutes().find((r) => r.method === c.method && r.path === c.route);
      if (!route) continue;
      const pathname = c.route.replace(':id', h.ids.waitingOrder).replace(':nodeId', 'go');
      await checkOne(route, pathname, c.body);
    }
  });

  it('every JSON route: random and boundary bodies never get a 5xx, and a 4xx changes nothing', async () => {
    // The test clock route (TEST_CLOCK=1 only) is not product surface, and each valid call may fire years of
    // daily jobs; its limits have their own test below.
    const routes = h.jsonRoutes().filter((r) => r.path !== '/api/v1/test/clock');
    const statuses: Record<string, Record<number, number>> = {};
    for (const route of routes) {
      const key = `${route.method.toUpperCase()} ${route.path}`;
      statuses[key] = {};
      await fc.assert(
        fc.asyncProperty(pathArb(route), routeBodyArb(route), async (pathname, body) => {
          const status = await checkOne(route, pathname, body);
          statuses[key][status] = (statuses[key][status] ?? 0) + 1;
        }),
        { seed, numRuns: SIZES.fuzzRuns, endOnFailure: true },
      );
    }
    console.log(`[resilience] hostile bodies, statuses per route: ${JSON.stringify(statuses)}`);
  }, SIZES.form === 'full' ? 1_800_000 : 600_000);

  it('the test clock route refuses times at the limits with a 400 at once, and changes nothing (contract section 6)', async () => {
    const route = h.jsonRoutes().find((r) => r.path === '/api/v1/test/clock')!;
    const now = h.t.service.ctx.clock.now();
    for (const json of [
      { now: Number.MAX_SAFE_INTEGER },
      { now: now + 10 * 365 * 86_400_000 + 60_000 },
      { now: 1 },
      { now: -1 },
      { now: 1.5 },
      { advanceMs: 10 * 365 * 86_400_000 + 1 },
      { advanceMs: -1 },
      { advanceMs: 1e308 },
      { advanceMs: 1, now },
      {},
    ]) {
      const started = Date.now();
      expect(await checkOne(route, route.path, { json }), JSON.stringify(json)).toBe(400);
      expect(Date.now() - started).toBeLessThan(5_000);
    }
  });
});
