// Hostile channel input (issue "Resilience": fuzz the X12 tokenizer and the storefront mapper; spec "EDI 850 adapter"):
// mutated real interchanges and payloads, huge and deeply nested ones, with a fixed seed. The tokenizer and mapper
// throw nothing but an envelope error; over HTTP the EDI route never answers 5xx and starts exactly the orders it
// reports as started.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPlatformOrder } from '../../../src/channels/storefront/platform-order-mapper.js';
import { mapX12850 } from '../../../src/channels/x12/x12-850-mapper.js';
import { tokenizeX12, X12EnvelopeError } from '../../../src/channels/x12/x12-tokenizer.js';
import { fixtureFiles, PLATFORM_DIR, platformFixture, X12_DIR, x12Fixture } from '../../unit/channels/channel-fixtures.js';
import { SIZES } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { startHostileService, type HostileService } from './hostile-service.js';
import { HOSTILE_STRINGS, nest } from './schema-arbitrary.js';

const seed = resilienceSeed('channel mappers');
const runs = { seed, numRuns: SIZES.fuzzRuns * 5 };
const x12Texts = fixtureFiles(X12_DIR).map((f) => Buffer.from(x12Fixture(f)).toString('latin1'));
const platformPayloads = fixtureFiles(PLATFORM_DIR).map((f) => platformFixture(f) as Record<string, unknown>);

/** Runs `fn`; an X12EnvelopeError is an allowed outcome, anything else thrown fails the property. */
function envelopeErrorOr<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (error instanceof X12EnvelopeError) return undefined;
    throw error;
  }
}

/** A real interchange with 1 to 6 edits: characters replaced, inserted or deleted, segments doubled or dropped, cut short. */
const mutatedX12 = fc
  .tuple(
    fc.constantFrom(...x12Texts),
    fc.array(
      fc.tuple(fc.nat(), fc.constantFrom('replace', 'insert', 'delete', 'double', 'drop', 'cut'), fc.oneof(fc.string({ unit: 'binary', maxLength: 3 }), fc.constantFrom('*', '~', '>', '|', '\n', ...HOSTILE_STRINGS))),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [pos, kind, s]) => {
      const i = t.length ? pos % t.length : 0;
      const segmentEnd = t.indexOf('~', i);
      switch (kind) {
        case 'replace':
          return t.slice(0, i) + s + t.slice(i + 1);
        case 'insert':
          return t.slice(0, i) + s + t.slice(i);
        case 'delete':
          return t.slice(0, i) + t.slice(i + 1 + (pos % 5));
        case 'double':
          return segmentEnd < 0 ? t + t.slice(i) : t.slice(0, segmentEnd + 1) + t.slice(i, segmentEnd + 1) + t.slice(segmentEnd + 1);
        case 'drop':
          return segmentEnd < 0 ? t.slice(0, i) : t.slice(0, i) + t.slice(segmentEnd + 1);
        default:
          return t.slice(0, Math.max(i, 106));
      }
    }, text),
  );

/** Huge interchanges: a real header with thousands of PO1 lines or one enormous element. */
const hugeX12 = fc.tuple(fc.constantFrom(...x12Texts), fc.integer({ min: 1_000, max: 20_000 }), fc.boolean()).map(([text, n, lines]) => {
  const cut = text.indexOf('PO1');
  if (cut < 0) return text + 'X'.repeat(n * 10);
  const po1 = text.slice(cut, text.indexOf('~', cut) + 1);
  return lines ? text.slice(0, cut) + po1.repeat(n) + text.slice(cut) : text.slice(0, cut) + `PO1*1*1*EA*1**VP*${'A'.repeat(n * 10)}~` + text.slice(cut);
});

describe(`hostile channel input (seed ${seed})`, () => {
  it('the X12 tokenizer and 850 mapper throw nothing but X12EnvelopeError on mutated real interchanges; ok results are well-formed', () => {
    fc.assert(
      fc.property(fc.oneof({ arbitrary: mutatedX12, weight: 8 }, { arbitrary: hugeX12, weight: 1 }), (body) => {
        envelopeErrorOr(() => tokenizeX12(body));
        const mapping = envelopeErrorOr(() => mapX12850(body));
        for (const result of mapping?.results ?? []) {
          if (!result.ok) {
            expect(typeof result.error).toBe('string');
            continue;
          }
          expect(result.order.lines.length).toBeGreaterThan(0);
          for (const line of result.order.lines) {
            expect(line.sku.length).toBeGreaterThan(0);
            expect(Number.isSafeInteger(line.qty) && line.qty > 0).toBe(true);
            if (line.unitPrice !== undefined) expect(Number.isFinite(line.unitPrice)).toBe(true);
          }
        }
      }),
      runs,
    );
  });

  it('the storefront mapper never throws on real payloads with hostile fields, huge line lists or deep nesting; ok orders are well-formed', () => {
    const hostile = fc.oneof(
      fc.constantFrom(...HOSTILE_STRINGS, null, -1, 0, 1e308, Number.MAX_SAFE_INTEGER, [], {}),
      fc.integer({ min: 50, max: 2_000 }).map((n) => nest(n)),
      fc.anything({ maxDepth: 3, withNullPrototype: true }),
    );
    const field = fc.constantFrom('id', 'name', 'email', 'currency', 'source_name', 'company', 'customer', 'line_items', 'shipping_address', '__proto__', 'constructor');
    const linePatch = fc.record({ sku: hostile, title: hostile, quantity: hostile, price: hostile }, { requiredKeys: [] });
    const payload = fc.oneof(
      fc.tuple(fc.constantFrom(...platformPayloads), fc.array(fc.tuple(field, hostile), { maxLength: 4 })).map(([base, patches]) => {
        const p: Record<string, unknown> = { ...base };
        for (const [k, v] of patches) Object.defineProperty(p, k, { value: v, enumerable: true, configurable: true, writable: true });
        return p;
      }),
      fc.tuple(fc.constantFrom(...platformPayloads), fc.array(linePatch, { minLength: 1, maxLength: 5 })).map(([base, items]) => ({ ...base, line_items: items })),
      fc.tuple(fc.constantFrom(...platformPayloads), fc.integer({ min: 1_000, max: 3_000 })).map(([base, n]) => ({
        ...base,
        line_items: Array.from({ length: n }, (_, i) => ({ sku: `SKU-${i}`, title: 'x', quantity: 1, price: '1.00' })),
      })),
    );
    fc.assert(
      fc.property(payload, (p) => {
        const result = mapPlatformOrder(p, { platformName: 'fuzzshop', customers: [{ id: 'cust_1', email: 'buyer@example.com' }] });
        if (!result.ok) {
          expect(typeof result.error).toBe('string');
          return;
        }
        for (const line of result.order.lines) {
          expect(line.sku.trim()).not.toBe('');
          expect(line.qty).toBeGreaterThan(0);
          expect(Number.isFinite(line.unitPrice)).toBe(true);
        }
      }),
      runs,
    );
  });
});

describe(`hostile EDI over HTTP (seed ${seed})`, () => {
  let h: HostileService;
  beforeAll(async () => {
    h = await startHostileService();
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('POST /api/v1/channels/edi/850 with mutated interchanges: never a 5xx; a 4xx changes nothing; a 200 starts exactly the orders it reports', async () => {
    const statuses: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(fc.oneof({ arbitrary: mutatedX12, weight: 6 }, { arbitrary: fc.constantFrom(...x12Texts), weight: 1 }), fc.constantFrom('application/edi-x12', 'text/plain', 'application/json'), async (body, type) => {
        const before = await h.fingerprint();
        const [{ n: ordersBefore }] = (await h.t.service.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows;
        const res = await h.t.call('POST', '/api/v1/channels/edi/850', undefined, { raw: Buffer.from(body, 'latin1'), headers: { 'content-type': type } });
        expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBeGreaterThan(0);
        expect(res.status, `${res.status} ${res.text.slice(0, 300)}`).toBeLessThan(500);
        const key = res.status === 200 ? `200:${(res.body.results as { status: number }[]).map((r) => r.status).join('+')}` : String(res.status);
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (res.status >= 400) {
          expect(typeof res.body?.error).toBe('string');
          expect(await h.changedSince(before)).toEqual([]);
          return;
        }
        const started = (res.body.results as { status: number }[]).filter((r) => r.status === 201).length;
        const [{ n: ordersAfter }] = (await h.t.service.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders')).rows;
        expect(ordersAfter - ordersBefore).toBe(started);
      }),
      { seed, numRuns: SIZES.fuzzRuns, endOnFailure: true },
    );
    console.log(`[resilience] hostile EDI statuses: ${JSON.stringify(statuses)}`);
  }, SIZES.form === 'full' ? 900_000 : 300_000);
});
