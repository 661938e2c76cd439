// Signatures under random mutation (issue "Resilience"; spec "Signed events route", "Storefront-platform adapter",
// "Errors" 401): a signed request whose header or body was changed so that no valid signature covers it anymore is
// a 401 that changes nothing. An independent check (the spec's rules) decides which mutants are still genuine.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../../../src/http/route.js';
import { SIZES } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { platformHmac, PLATFORM_SECRET, serviceSignature, startHostileService, type HostileService } from './hostile-service.js';

let h: HostileService;
let other: { id: string; secret: string };
const seed = resilienceSeed('signature mutations');
const SKEW_MS = 5 * 60_000;
beforeAll(async () => {
  h = await startHostileService();
  const res = await h.t.call('POST', '/api/v1/integrations', { name: 'fuzz-other', events: ['*'], startOrders: true, flows: ['*'] });
  other = { id: res.body.integration.id, secret: res.body.secret };
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const printable = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));

/** One edit of a text: replace, insert or delete a character, or cut it short. */
function editArb(text: string): fc.Arbitrary<string> {
  const at = fc.integer({ min: 0, max: Math.max(0, text.length - 1) });
  return fc.oneof(
    fc.tuple(at, printable).map(([i, c]) => text.slice(0, i) + c + text.slice(i + 1)),
    fc.tuple(at, printable).map(([i, c]) => text.slice(0, i) + c + text.slice(i)),
    at.map((i) => text.slice(0, i) + text.slice(i + 1)),
    at.map((i) => text.slice(0, i)),
  );
}

/**
 * Whether a signed-route request is genuinely signed by the spec's rules (read as leniently as a
 * server may: parts split on commas, names and values trimmed, hex case ignored, any of several v1).
 */
function genuinelySigned(header: string, body: string, nowMs: number): boolean {
  let t: string | undefined;
  let k: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') t = value;
    else if (name === 'k') k = value;
    else if (name === 'v1') v1.push(value.toLowerCase());
  }
  if (!t || !/^\d{1,12}$/.test(t) || Math.abs(nowMs - Number(t) * 1000) > SKEW_MS) return false;
  const secret = k === h.ids.integration ? h.integrationSecret : k === other.id ? other.secret : null;
  if (!secret) return false;
  const mac = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return v1.includes(mac);
}

interface Mutant {
  header: string;
  body: string;
  how: string;
}

/** Mutants of a correctly signed request: header edits, foreign keys and secrets, moved timestamps, edited bodies. */
function signedMutants(body: string): fc.Arbitrary<Mutant> {
  const now = h.t.service.ctx.clock.now();
  const header = serviceSignature(h.ids.integration, h.integrationSecret, now, body);
  const t = Math.floor(now / 1000);
  const mac = (secret: string, tt: number | string, b: string) => createHmac('sha256', secret).update(`${tt}.`).update(b).digest('hex');
  const one: fc.Arbitrary<Mutant> = fc.oneof(
    editArb(header).map((m) => ({ header: m, body, how: 'header edited' })),
    fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((d) => d !== 0).map((d) => ({ header: header.replace(/t=\d+/, `t=${t + d}`), body, how: `t moved ${d} s` })),
    fc.constant({ header: `t=${t},k=${other.id},v1=${mac(h.integrationSecret, t, body)}`, body, how: "another integration's k with this one's MAC" }),
    fc.constant({ header: `t=${t},k=${h.ids.integration},v1=${mac(other.secret, t, body)}`, body, how: "this k with another integration's secret" }),
    fc.constant({ header: `t=${t - 400},k=${h.ids.integration},v1=${mac(h.integrationSecret, t - 400, body)}`, body, how: 'correctly signed but 400 s old' }),
    fc.constant({ header: `t=${t + 400},k=${h.ids.integration},v1=${mac(h.integrationSecret, t + 400, body)}`, body, how: 'correctly signed but 400 s ahead' }),
    fc.constant({ header: `t=${t},k=${h.ids.integration},v1=${mac(h.integrationSecret, `0${t}`, body)}`, body, how: 'MAC over another spelling of t' }),
    fc.constantFrom('t', 'k', 'v1').map((part) => ({ header: header.split(',').filter((p) => !p.startsWith(`${part}=`)).join(','), body, how: `${part}= dropped` })),
    fc.stringMatching(/^[0-9a-f]{64}$/).map((v) => ({ header: header.replace(/v1=[0-9a-f]+/, `v1=${v}`), body, how: 'random v1' })),
    editArb(body).map((b) => ({ header, body: b, how: 'body edited after signing' })),
    fc.constantFrom(' ', '\n', '{}').map((extra) => ({ header, body: body + extra, how: 'bytes appended to the body' })),
    fc.constantFrom('', 'garbage', 'v1=', 't=,k=,v1=', `k=${h.ids.integration}`).map((v) => ({ header: v, body, how: 'malformed header' })),
  );
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((ms) => ms.reduce((acc, m) => ({ header: m.header === header ? acc.header : m.header, body: m.body === body ? acc.body : m.body, how: `${acc.how}; ${m.how}` })));
}

/** Mutants of a request with a correct platform HMAC: header edits, case changes, another secret, edited bodies. */
function platformMutants(body: string): fc.Arbitrary<Mutant> {
  const header = platformHmac(body);
  return fc.oneof(
    editArb(header).map((m) => ({ header: m, body, how: 'HMAC header edited' })),
    fc.constant({ header: header.toUpperCase(), body, how: 'HMAC upper-cased' }),
    fc.constant({ header: createHmac('sha256', 'another-secret').update(body).digest('base64'), body, how: 'another secret' }),
    fc.constant({ header: createHmac('sha256', PLATFORM_SECRET).update(body).digest('hex'), body, how: 'hex instead of base64' }),
    editArb(body).map((b) => ({ header, body: b, how: 'body edited after signing' })),
    fc.constantFrom('', ' ', 'x').map((v) => ({ header: v, body, how: 'empty or junk HMAC' })),
  );
}

async function expectRefused(route: HttpRoute, path: string, headers: Record<string, string>, mutant: Mutant): Promise<void> {
  const before = await h.fingerprint();
  const res = await h.t.call('POST', path, undefined, { raw: mutant.body, headers: { 'content-type': 'application/json', ...headers }, token: null });
  const where = `${path} (${mutant.how}): header ${JSON.stringify(headers)} body ${mutant.body.slice(0, 200)}`;
  expect(res.status, `${where} answered ${res.status} ${res.text.slice(0, 200)}`).toBe(401);
  expect(typeof res.body?.error).toBe('string');
  expect(await h.changedSince(before), `${where} changed tables`).toEqual([]);
}

describe(`signature mutations never authenticate (seed ${seed}, ${SIZES.fuzzRuns * 2} mutants per route)`, () => {
  const runs = { seed, numRuns: SIZES.fuzzRuns * 2, endOnFailure: true };

  it('signed events and signed orders: a mutant no valid signature covers is a 401 and changes nothing', async () => {
    const routes = h.jsonRoutes().filter((r) => r.path === '/api/v1/webhooks/events' || r.path === '/api/v1/webhooks/orders');
    expect(routes.length, 'signed routes present').toBeGreaterThan(0);
    let genuine = 0;
    for (const route of routes) {
      const body =
        route.path === '/api/v1/webhooks/events'
          ? JSON.stringify({ orderId: h.ids.waitingOrder, event: 'fuzz.go', payload: { via: 'signed' } })
          : JSON.stringify({ model: 'b2c', channel: 'web', externalId: 'sig-fuzz-1', lines: [{ sku: 'MUG-1', qty: 1 }] });
      await fc.assert(
        fc.asyncProperty(signedMutants(body), async (mutant) => {
          if (genuinelySigned(mutant.header, mutant.body, h.t.service.ctx.clock.now())) {
            genuine += 1;
            return;
          }
          await expectRefused(route, route.path, { 'x-service-signature': mutant.header }, mutant);
        }),
        runs,
      );
    }
    console.log(`[resilience] signed-route mutants still genuinely signed (skipped): ${genuine}`);
  });

  it('storefront platform: a mutant whose HMAC header is not the base64 HMAC of its body is a 401 and changes nothing', async () => {
    const route = h.jsonRoutes().find((r) => r.path === '/api/v1/channels/platform/orders');
    expect(route, 'platform route present').toBeDefined();
    const body = JSON.stringify({ id: 990001, email: 'buyer@example.com', currency: 'USD', line_items: [{ sku: 'MUG-1', title: 'Mug', quantity: 1, price: '12.50' }] });
    await fc.assert(
      fc.asyncProperty(platformMutants(body), async (mutant) => {
        fc.pre(mutant.header.trim() !== platformHmac(mutant.body));
        await expectRefused(route!, route!.path, { 'x-platform-hmac-sha256': mutant.header, 'x-platform-topic': 'orders/create' }, mutant);
      }),
      runs,
    );
  });
});
