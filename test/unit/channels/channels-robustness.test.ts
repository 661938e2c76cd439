// Property tests: random input never makes the tokenizer or the mappers throw anything but X12EnvelopeError / ok:false.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPlatformOrder } from '../../../src/channels/storefront/platform-order-mapper.js';
import { mapX12850 } from '../../../src/channels/x12/x12-850-mapper.js';
import { tokenizeX12, X12EnvelopeError } from '../../../src/channels/x12/x12-tokenizer.js';
import { isaHeader, platformFixture } from './channel-fixtures.js';

const RUNS = { numRuns: 400 };

/** Runs `fn`; an X12EnvelopeError is an allowed outcome, anything else thrown fails the property. */
function envelopeErrorOr<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch (error) {
    if (error instanceof X12EnvelopeError) return undefined;
    throw error;
  }
}

const DELIMITERS = ['*', '|', '~', '>', '^', ':', '\n', '\r', '+', '!'];
const delimiters = fc
  .tuple(fc.constantFrom(...DELIMITERS), fc.constantFrom(...DELIMITERS), fc.constantFrom(...DELIMITERS))
  .map(([element, component, segment]) => ({ element, component, segment }));
/** Delimiters the tokenizer accepts, so generated bodies reach the mapper. */
const validDelimiters = fc.constantFrom(
  { element: '*', component: '>', segment: '~' },
  { element: '|', component: '^', segment: '\n' },
  { element: '~', component: '>', segment: '\r' },
  { element: '*', component: '~', segment: '|' },
);

/** Element values that reach the mapper's branches: qualifiers, numbers, dates, noise. */
const value = fc.oneof(
  fc.constantFrom('ST', 'VP', 'SK', 'BP', 'IN', 'VN', '', '1', '2', '0', '-1', '2.5', '0008', 'abc', '20240101', '991231', '20240230', 'USD'),
  fc.string({ maxLength: 6 }),
);
/** Mostly plausible values from `good`, sometimes any `value`, so both the happy and the failing paths run. */
const mostly = (...good: string[]) => fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 6 }, { arbitrary: value, weight: 1 });
const po1 = fc
  .tuple(value, mostly('1', '2', '0008', '12'), mostly('', '9.99', '0', '100'), fc.array(fc.tuple(mostly('VP', 'SK', 'BP', 'IN', 'VN', 'UP'), mostly('A-1', 'B-2')), { minLength: 1, maxLength: 4 }))
  .map(([id, qty, price, pairs]) => ['PO1', id, qty, 'EA', price, '', ...pairs.flat()]);
const bodySegment = fc.oneof(
  { arbitrary: po1, weight: 12 },
  { arbitrary: value.map((name) => ['PID', 'F', '', '', '', name]), weight: 4 },
  { arbitrary: fc.tuple(value, value).map(([qualifier, name]) => ['N1', qualifier, name]), weight: 4 },
  { arbitrary: fc.tuple(value, value).map(([a, b]) => ['N3', a, b]), weight: 4 },
  { arbitrary: fc.tuple(value, value, value, value).map(([a, b, c, d]) => ['N4', a, b, c, d]), weight: 4 },
  { arbitrary: value.map((code) => ['CUR', 'BY', code]), weight: 2 },
  // Rarely, a stray envelope or summary segment in the middle of a transaction set.
  { arbitrary: fc.tuple(fc.constantFrom('GS', 'GE', 'ST', 'SE', 'CTT', 'BEG', 'XX'), fc.array(value, { maxLength: 6 })).map(([id, els]) => [id, ...els]), weight: 1 },
);
const transactionSet = fc
  .record({
    type: fc.oneof({ arbitrary: fc.constant('850'), weight: 8 }, fc.constantFrom('810', '')),
    control: fc.constantFrom('0001', '0002', ''),
    beg: fc.oneof({ arbitrary: fc.tuple(mostly('PO-1', '4500'), mostly('20240101', '991231', '')).map(([po, date]) => ['BEG', '00', 'SA', po, '', date]), weight: 8 }, fc.constant(null)),
    body: fc.array(bodySegment, { maxLength: 8 }),
    ctt: fc.oneof({ arbitrary: fc.constant('right'), weight: 6 }, fc.constantFrom('wrong', 'none')),
    se: fc.oneof({ arbitrary: fc.constant('right'), weight: 8 }, fc.constantFrom('wrong', 'none')),
  })
  .map(({ type, control, beg, body, ctt, se }) => {
    const lines = body.filter((segment) => segment[0] === 'PO1').length;
    const content = [...(beg ? [beg] : []), ...body, ...(ctt === 'none' ? [] : [['CTT', String(ctt === 'right' ? lines : lines + 1)]])];
    const count = content.length + 2;
    return [['ST', type, control], ...content, ...(se === 'none' ? [] : [['SE', String(se === 'right' ? count : count + 1), control]])];
  });

/** A well-formed ISA, then GS, one to three generated transaction sets, GE and IEA. */
const randomInterchange = fc
  .tuple(validDelimiters, fc.array(transactionSet, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '\uFEFF', '  \r\n'))
  .map(([d, sets, lead]) => {
    const segments = [['GS', 'PO', 'A', 'B', '20240101', '1200', '1', 'X', '004010'], ...sets.flat(), ['GE', String(sets.length), '1'], ['IEA', '1', '000000001']];
    // Generated values never hold the chosen delimiters' characters except by chance; that only adds noise.
    return lead + isaHeader(d) + segments.map((segment) => segment.join(d.element) + d.segment).join('');
  });

describe('X12 tokenizer robustness', () => {
  it('arbitrary text throws nothing but X12EnvelopeError', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => void envelopeErrorOr(() => tokenizeX12(text))), RUNS);
  });

  it('arbitrary bytes throw nothing but X12EnvelopeError', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => void envelopeErrorOr(() => tokenizeX12(bytes))), RUNS);
  });

  it('a valid ISA followed by arbitrary text throws nothing but X12EnvelopeError, and segments never hold the terminator', () => {
    fc.assert(
      fc.property(delimiters, fc.string({ unit: 'binary', maxLength: 300 }), (d, tail) => {
        const result = envelopeErrorOr(() => tokenizeX12(isaHeader(d) + tail));
        if (!result) return;
        for (const segment of result.segments.slice(1)) {
          expect(segment.id.includes(d.segment)).toBe(false);
          for (const element of segment.elements) for (const component of element) expect(component.includes(d.segment)).toBe(false);
        }
      }),
      RUNS,
    );
  });
});

describe('X12 850 mapper robustness', () => {
  it('random interchanges give X12EnvelopeError or per-transaction results whose ok orders are well-formed', () => {
    fc.assert(
      fc.property(randomInterchange, (body) => {
        const mapping = envelopeErrorOr(() => mapX12850(body));
        if (!mapping) return;
        expect(mapping.results.length).toBeGreaterThan(0);
        for (const result of mapping.results) {
          if (!result.ok) {
            expect(typeof result.error).toBe('string');
            continue;
          }
          const { order } = result;
          expect(order.externalId).toBe(`${mapping.sender}:${result.poNumber}`);
          expect(order.lines.length).toBeGreaterThan(0);
          for (const line of order.lines) {
            expect(line.sku).not.toBe('');
            expect(line.qty).toBeGreaterThan(0);
            if (line.unitPrice !== undefined) expect(Number.isFinite(line.unitPrice)).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('arbitrary text throws nothing but X12EnvelopeError', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => void envelopeErrorOr(() => mapX12850(text))), RUNS);
  });
});

describe('storefront-platform mapper robustness', () => {
  const opts = { platformName: 'shopify', customers: [{ id: 'c1', email: 'jon@example.com' }] };

  /** Well-formed orders keep their invariants; the mapper itself never throws. */
  const checkResult = (input: unknown): void => {
    const result = mapPlatformOrder(input, opts);
    if (!result.ok) {
      expect(typeof result.error).toBe('string');
      return;
    }
    expect(result.order.lines.length).toBeGreaterThan(0);
    for (const line of result.order.lines) {
      expect(line.sku.trim()).not.toBe('');
      expect(line.qty).toBeGreaterThan(0);
      expect(Number.isFinite(line.unitPrice)).toBe(true);
    }
  };

  it('arbitrary values (objects, arrays, null-prototype objects, primitives) never throw', () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true }), checkResult), RUNS);
  });

  it('arbitrary JSON values never throw', () => {
    fc.assert(fc.property(fc.jsonValue(), checkResult), RUNS);
  });

  it('a real payload with random values in its mapped fields never throws', () => {
    const base = platformFixture('derived__shopify_docs_2023-07_orders_create.payload.json') as Record<string, unknown>;
    const anyValue = fc.oneof(fc.anything({ withNullPrototype: true }), fc.constantFrom(null, '', ' ', '1.5', 'x', 0, -1));
    const item = fc.record({ sku: anyValue, title: anyValue, quantity: anyValue, price: anyValue }, { requiredKeys: [] });
    const address = fc.record(
      { name: anyValue, address1: anyValue, address2: anyValue, city: anyValue, province_code: anyValue, zip: anyValue, country_code: anyValue, latitude: anyValue, longitude: anyValue },
      { requiredKeys: [] },
    );
    const overrides = fc.record(
      {
        id: anyValue, name: anyValue, email: anyValue, source_name: anyValue, currency: anyValue, company: anyValue,
        customer: fc.oneof(anyValue, fc.record({ first_name: anyValue, last_name: anyValue }, { requiredKeys: [] })),
        line_items: fc.oneof(anyValue, fc.array(fc.oneof(item, anyValue), { maxLength: 4 })),
        shipping_address: fc.oneof(anyValue, address),
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(overrides, (patch) => checkResult({ ...base, ...patch })), RUNS);
  });
});
