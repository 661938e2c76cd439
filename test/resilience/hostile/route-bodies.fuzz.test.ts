// Hostile input on every JSON route (issue "Resilience"; spec "Errors", "Limits"): random and boundary bodies per
// the route's own zod schema never get a 5xx, and a 4xx changes nothing in the database. Signed routes are signed
// correctly so the body itself is what is tested. New routes join automatically (read from the running service).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../../src/http/route.js';
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
function paramArb(route: HttpRoute, name: string): fc.Arbitrary<string> {
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

function pathArb(route: HttpRoute): fc.Arbitrary<string> {
  const names = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
  if (names.length === 0) return fc.constant(route.path);
  return fc.tuple(...names.map((n) => paramArb(route, n))).map((values) =>
    names.reduce((p, n, i) => p.replace(`:${n}`, encodeSegment(values[i])), route.path),
  );
}

/** Mostly `good`, now and then `bad`: each field of a payload is usually valid, so payloads get past mapping. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });

/** Text for free-form platform fields: plain and odd unicode, sometimes hostile or past common column sizes. */
const platformText = mostly(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }), fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.constant('x'.repeat(501))));

/** A storefront-platform order-created payload: mostly mappable, with hostile values in its fields. */
const platformOrder = fc.record(
  {
    id: mostly(fc.integer({ min: 1, max: 1e12 }), fc.constantFrom(Number.MAX_SAFE_INTEGER, 12345678901234567890, -1, 0, '77', null)),
    name: platformText,
    email: mostly(fc.constantFrom('buyer@example.com', 'someone@example.org'), fc.oneof(fc.emailAddress(), fc.constantFrom(...HOSTILE_STRINGS))),
    currency: mostly(fc.constantFrom('USD', 'EUR', 'JPY'), fc.constantFrom('usd', 'XXX', '', null)),
    source_name: fc.constantFrom('web', 'pos', 'iphone', 'android', 'shopify_draft_order', '', null),
    company: fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: fc.record({ name: platformText }), weight: 1 }),
    customer: fc.record({ first_name: platformText, last_name: platformText }, { requiredKeys: [] }),
    line_items: fc.array(
      fc.record(
        {
          sku: mostly(fc.constantFrom('MUG-1', 'PAN-CAST-10', 'NO-SUCH-SKU'), fc.constantFrom('', ' ', null)),
          title: platformText,
          quantity: mostly(fc.integer({ min: 1, max: 5 }), fc.constantFrom(-1, 0, 1e9, 0.5, '2')),
          price: mostly(fc.constantFrom('12.50', '0.00', '199.99', 12.5), fc.constantFrom('199.999', '1e3', '-1', 'abc', '1e400', null)),
        },
        { requiredKeys: ['sku', 'quantity', 'price'] },
      ),
      { minLength: 1, maxLength: 4 },
    ),
    shipping_address: fc.record(
      {
        name: platformText,
        address1: platformText,
        city: platformText,
        zip: platformText,
        country_code: mostly(fc.constantFrom('US', 'DE'), fc.constantFrom('ZZ', '', null)),
        latitude: mostly(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(91, -1e308, '40.7')),
        longitude: mostly(fc.double({ min: -180, max: 180, noNaN: true }), fc.constantFrom(181, 1e308)),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: ['id', 'line_items', 'currency'] },
);

/** What a route's body looks like: its zod schema when it has one, else (the platform payload is free-form) its own shape. */
function routeBodyArb(route: HttpRoute): fc.Arbitrary<HostileBody> {
  const schema = route.body ?? route.rawBody?.schema;
  if (schema) return bodyArb(schema, { hints: h.hints });
  return fc.oneof(
    { arbitrary: platformOrder.map((json): HostileBody => ({ json })), weight: 6 },
    { arbitrary: anyJson().map((json): HostileBody => ({ json })), weight: 2 },
    { arbitrary: rawBodyArb(platformOrder), weight: 1 },
  );
}

/** One request: never a 5xx (the service is healthy), always `{ error }` on a 4xx, and a 4xx changes no table. */
async function checkOne(route: HttpRoute, pathname: string, body: HostileBody): Promise<number> {
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
      const pathname = c.path ?? c.route.replace(':id', h.ids.waitingOrder).replace(':nodeId', 'go');
      expect(await checkOne(route, pathname, c.body), c.was).toBeLessThan(500);
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
