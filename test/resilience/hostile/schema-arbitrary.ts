// Hostile request bodies from a route's zod schema (via its JSON Schema): values that follow the schema, values at
// and just past its limits, wrong types, odd unicode, deep nesting, and raw texts that are not JSON at all.
import fc from 'fast-check';
import { z } from 'zod';

/** The subset of JSON Schema (2020-12, as zod 4 writes it) the generator reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

/** A body to send: a JSON value (stringified by the sender) or raw text sent as is. */
export type HostileBody = { json: unknown } | { raw: string; contentType?: string };

/** Well-known good values by property name, so generated bodies also get past the first checks. */
export type Hints = Record<string, readonly unknown[]>;

/** Strings that break naive code: NUL, lone surrogates, bidi overrides, combining marks, injections, JSON look-alikes. */
export const HOSTILE_STRINGS = [
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud83d', '\u{1F600}', '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}', 'e\u0301\u0301\u0301',
  '\u202e', '\uFEFF', '\u2028\u2029', 'Ω≈ç√∫', '𝓤𝓷𝓲𝓬𝓸𝓭𝓮', 'ﷺ', '<script>alert(1)</script>', "'; DROP TABLE orders; --", '../../etc/passwd',
  '%00', '\\', '"', '\n\r\t', 'null', 'true', '0', '-1', '1e309', 'NaN', '__proto__', 'constructor', '{"a":1}', '$where', '*',
] as const;

/** Numbers at and past every limit JSON can carry (no NaN or Infinity: JSON.stringify makes them null). */
const EDGE_NUMBERS = [0, -0, 1, -1, 0.5, -0.5, 1e-7, 5e-324, 2 ** 31, -(2 ** 31), 2 ** 53, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21, 1e308, -1e308];

const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', [], [null], {}, { '': null }];

export interface GenOptions {
  hints?: Hints;
  /** Deepest object/array nesting generated from the schema. */
  maxDepth?: number;
  /**
   * Only values the schema accepts (lengths and numbers up to and at their limits, odd but storable
   * text), so bodies get past validation into the handlers; otherwise anything goes.
   */
  strict?: boolean;
}

/** Hostile strings a database can store (no NUL, no unpaired surrogate): the strict generator's odd text. */
const STORABLE_HOSTILE = HOSTILE_STRINGS.filter((v) => !/\u0000|[\ud800-\udfff]/u.test(v));

/** The JSON Schema of a zod schema as the request validates it (input side). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/\$defs\//, '');
  return root.$defs?.[name] ?? {};
}

function typesOf(schema: JsonSchema): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items || schema.prefixItems) return ['array'];
  return [];
}

/** Strings the schema accepts: by its pattern, or any storable text of an allowed length, at the limits too. */
function strictStringArb(s: JsonSchema, hinted: readonly unknown[]): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 300, 200_000);
  const fits = (v: string) => v.length >= min && v.length <= max;
  const options: fc.WeightedArbitrary<unknown>[] = [];
  if (s.pattern) options.push({ arbitrary: fc.stringMatching(new RegExp(s.pattern)).filter(fits), weight: 6 });
  else {
    options.push({ arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 30) }).filter(fits), weight: 4 });
    options.push({ arbitrary: fc.constantFrom(...['a'.repeat(max), '\u{1F600}'.repeat(Math.floor(max / 2)), 'é'.repeat(max), ...STORABLE_HOSTILE].filter(fits)), weight: 2 });
  }
  const hints = hinted.filter((v) => typeof v === 'string' && fits(v));
  if (hints.length) options.push({ arbitrary: fc.constantFrom(...hints), weight: 8 });
  return fc.oneof(...options);
}

/** Strings for a string schema: valid lengths, the limits, one past them, hostile text. */
function stringArb(s: JsonSchema, hinted: readonly unknown[]): fc.Arbitrary<unknown> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 300, 200_000);
  const options: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 40) }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', minLength: min, maxLength: Math.min(max, 20) }), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', minLength: min, maxLength: Math.min(max, 20) }), weight: 2 },
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 3 },
    { arbitrary: fc.constantFrom('a'.repeat(max), '\u{1F600}'.repeat(Math.ceil(max / 2)), 'é'.repeat(max)), weight: 1 },
  ];
  if (s.maxLength !== undefined) options.push({ arbitrary: fc.constantFrom('a'.repeat(s.maxLength + 1), 'x'.repeat(Math.min(s.maxLength * 10, 500_000))), weight: 1 });
  if (min > 0) options.push({ arbitrary: fc.constant('a'.repeat(min - 1)), weight: 1 });
  if (s.format === 'email') options.push({ arbitrary: fc.emailAddress(), weight: 3 });
  if (s.format === 'uri' || s.format === 'url') options.push({ arbitrary: fc.webUrl(), weight: 2 });
  if (hinted.length) options.push({ arbitrary: fc.constantFrom(...hinted), weight: 8 });
  return fc.oneof(...options);
}

function numberArb(s: JsonSchema, integer: boolean, hinted: readonly unknown[], strict = false): fc.Arbitrary<unknown> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : Number.EPSILON) : undefined);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : Number.EPSILON) : undefined);
  const limits = [lo, hi, lo !== undefined ? lo - 1 : undefined, hi !== undefined ? hi + 1 : undefined, hi !== undefined ? hi + 0.5 : undefined].filter(
    (v): v is number => v !== undefined && Number.isFinite(v),
  );
  const inRange = integer
    ? fc.integer({ min: Math.max(lo ?? -1e6, Number.MIN_SAFE_INTEGER), max: Math.min(hi ?? 1e6, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min: lo ?? -1e6, max: hi ?? 1e6, noNaN: true, noDefaultInfinity: true });
  if (strict) {
    const accepted = (v: number) => (lo === undefined || v >= lo) && (hi === undefined || v <= hi) && (!integer || Number.isSafeInteger(v));
    const edges = [...EDGE_NUMBERS, ...limits].filter(accepted);
    return edges.length ? fc.oneof({ arbitrary: inRange, weight: 3 }, { arbitrary: fc.constantFrom(...edges), weight: 2 }) : inRange;
  }
  const options: fc.WeightedArbitrary<unknown>[] = [
    { arbitrary: inRange, weight: 4 },
    { arbitrary: fc.constantFrom(...EDGE_NUMBERS, ...limits), weight: 3 },
    { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 1 },
  ];
  if (hinted.length) options.push({ arbitrary: fc.constantFrom(...hinted), weight: 6 });
  return fc.oneof(...options);
}

/** Any JSON value, sometimes nested deep (objects in arrays in objects…); storable text and sane depth when strict. */
export function anyJson(depth = 0, strict = false): fc.Arbitrary<unknown> {
  if (strict) return fc.oneof({ arbitrary: fc.jsonValue({ maxDepth: 3 }).filter((v) => !/\\u0000|\\ud[89a-f]/i.test(JSON.stringify(v))), weight: 6 }, { arbitrary: fc.constantFrom(...STORABLE_HOSTILE), weight: 2 }, { arbitrary: fc.integer({ min: 5, max: 40 }).map((n) => nest(n)), weight: 1 });
  return fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 6 },
    { arbitrary: fc.constantFrom(...HOSTILE_STRINGS), weight: 2 },
    { arbitrary: fc.integer({ min: 20, max: depth > 0 ? 30 : 400 }).map((n) => nest(n)), weight: 1 },
  );
}

/** `n` levels of alternating arrays and objects around a string. */
export function nest(n: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < n; i++) v = i % 2 ? [v] : { k: v };
  return v;
}

/** A value for `schema` (usually close to valid, sometimes wrong), `name` being its property name (for hints). */
export function valueArb(schema: JsonSchema, root: JsonSchema, options: GenOptions, depth = 0, name = ''): fc.Arbitrary<unknown> {
  const s = resolve(schema, root);
  const hinted = options.hints?.[name] ?? [];
  const strict = options.strict ?? false;
  // In strict mode nothing is of the wrong type; elsewhere a wrong type turns up now and then.
  const orWrong = (arb: fc.Arbitrary<unknown>, weight = 6): fc.Arbitrary<unknown> =>
    strict ? arb : fc.oneof({ arbitrary: arb, weight }, { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 1 });
  if (depth > (options.maxDepth ?? 6)) return strict ? fc.constant(null) : fc.oneof(fc.constantFrom(...WRONG_TYPES), fc.string({ maxLength: 5 }));
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) return orWrong(fc.oneof(...branches.map((b) => valueArb(b, root, options, depth + 1, name))));
  if (s.allOf?.length) return valueArb(Object.assign({}, ...s.allOf.map((b) => resolve(b, root))), root, options, depth, name);
  if (s.const !== undefined) return orWrong(fc.constant(s.const));
  if (s.enum?.length && strict) return fc.constantFrom(...s.enum);
  if (s.enum?.length) {
    const near = s.enum.filter((v): v is string => typeof v === 'string').flatMap((v) => [v.toUpperCase(), ` ${v}`, `${v}\u0000`]);
    return fc.oneof({ arbitrary: fc.constantFrom(...s.enum), weight: 8 }, { arbitrary: fc.constantFrom(...near, ...HOSTILE_STRINGS), weight: 1 }, { arbitrary: fc.constantFrom(...WRONG_TYPES), weight: 1 });
  }
  const types = typesOf(s);
  const arbs: fc.Arbitrary<unknown>[] = types.map((t) => {
    switch (t) {
      case 'string':
        return strict ? strictStringArb(s, hinted) : stringArb(s, hinted);
      case 'integer':
        return numberArb(s, true, hinted, strict);
      case 'number':
        return numberArb(s, false, hinted, strict);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return arrayArb(s, root, options, depth);
      case 'object':
        return objectArb(s, root, options, depth);
      default:
        return anyJson(depth);
    }
  });
  if (arbs.length === 0) return hinted.length ? fc.oneof(fc.constantFrom(...hinted), anyJson(depth, strict)) : anyJson(depth, strict);
  return orWrong(fc.oneof(...arbs), 8);
}

function arrayArb(s: JsonSchema, root: JsonSchema, options: GenOptions, depth: number): fc.Arbitrary<unknown> {
  if (s.prefixItems?.length) return fc.tuple(...s.prefixItems.map((p) => valueArb(p, root, options, depth + 1)));
  const item = s.items ? valueArb(s.items, root, options, depth + 1) : anyJson(depth + 1);
  const min = s.minItems ?? 0;
  const max = Math.min(s.maxItems ?? 8, 8);
  if (options.strict) return fc.array(item, { minLength: Math.min(min, max), maxLength: Math.max(min, max) });
  const options2: fc.WeightedArbitrary<unknown>[] = [{ arbitrary: fc.array(item, { minLength: Math.min(min, max), maxLength: max }), weight: 6 }];
  // One past the limit (a large limit is checked with cheap items).
  if (s.maxItems !== undefined) options2.push({ arbitrary: fc.constant(Array.from({ length: s.maxItems + 1 }, () => 'x')), weight: 1 });
  if (min > 0) options2.push({ arbitrary: fc.constant([]), weight: 1 });
  return fc.oneof(...options2);
}

function objectArb(s: JsonSchema, root: JsonSchema, options: GenOptions, depth: number): fc.Arbitrary<unknown> {
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const fields = props.map(([key, sub]) =>
    fc
      .tuple(fc.integer({ min: 0, max: 9 }), valueArb(sub, root, options, depth + 1, key))
      // Required fields are (mostly) there, optional ones half the time.
      .map(([roll, value]) => (roll < (required.has(key) ? (options.strict ? 10 : 9) : 5) ? ([[key, value]] as [string, unknown][]) : [])),
  );
  const closed = s.additionalProperties === false;
  const extra = options.strict && (closed || props.length > 0) ? fc.constant([] as [string, unknown][]) : fc.oneof(
    { arbitrary: fc.constant([] as [string, unknown][]), weight: 8 },
    { arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'unknownKey', '', 'a.b', '\u0000'), anyJson(depth + 1)).map((kv) => [kv] as [string, unknown][]), weight: 2 },
  );
  const open = s.additionalProperties !== false && props.length === 0;
  const free = open
    ? fc.array(
        fc.tuple(
          fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...(options.strict ? STORABLE_HOSTILE : HOSTILE_STRINGS))),
          typeof s.additionalProperties === 'object' ? valueArb(s.additionalProperties, root, options, depth + 1) : anyJson(depth + 1, options.strict),
        ),
        { maxLength: 5 },
      )
    : fc.constant([] as [string, unknown][]);
  return fc.tuple(fc.tuple(...fields), extra, free).map(([parts, more, rest]) => {
    const obj: Record<string, unknown> = {};
    // defineProperty keeps a "__proto__" key an own property, as JSON.parse on the server will.
    for (const [k, v] of [...parts.flat(), ...more, ...rest]) Object.defineProperty(obj, k, { value: v, enumerable: true, configurable: true, writable: true });
    return obj;
  });
}

/** Raw texts: not JSON, truncated JSON, nesting far past any sane depth, numbers JSON cannot hold, a BOM, other media types. */
export function rawBodyArb(validSample: fc.Arbitrary<unknown>): fc.Arbitrary<HostileBody> {
  return fc.oneof(
    fc.constantFrom<HostileBody>(
      { raw: '' },
      { raw: 'not json' },
      { raw: '{' },
      { raw: '{"a":' },
      { raw: 'null' },
      { raw: '[]' },
      { raw: '"a string"' },
      { raw: '12' },
      { raw: '{"a":1e999}' },
      { raw: '{"a":-1e999,"b":1e-999}' },
      { raw: '{"__proto__":{"isAdmin":true}}' },
      { raw: '\uFEFF{}' },
      { raw: '{"a":"\\ud800"}' },
      { raw: '{"a":"\\u0000"}' },
      { raw: '{"a":1,"a":2}' },
      { raw: '{}', contentType: 'text/plain' },
      { raw: '{}', contentType: 'application/x-www-form-urlencoded' },
      { raw: '<xml/>', contentType: 'application/xml' },
    ),
    fc.integer({ min: 1_000, max: 200_000 }).map((n): HostileBody => ({ raw: '['.repeat(n) + ']'.repeat(n) })),
    fc.integer({ min: 1_000, max: 100_000 }).map((n): HostileBody => ({ raw: '{"a":'.repeat(n) + '1' + '}'.repeat(n) })),
    fc.constant<HostileBody>({ raw: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }) }),
    validSample.map((v): HostileBody => {
      const text = JSON.stringify(v) ?? 'null';
      return { raw: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
    }),
  );
}

/** Bodies for a route: mostly schema-shaped JSON (with hostile leaves), sometimes wholly wrong values or raw text. */
export function bodyArb(schema: z.ZodType, options: GenOptions = {}): fc.Arbitrary<HostileBody> {
  const root = jsonSchemaOf(schema);
  const shaped = valueArb(root, root, { ...options, strict: false });
  const valid = valueArb(root, root, { ...options, strict: true });
  return fc.oneof(
    { arbitrary: valid.map((json): HostileBody => ({ json })), weight: 10 },
    { arbitrary: shaped.map((json): HostileBody => ({ json })), weight: 8 },
    // Deep nesting inside an otherwise plausible body: every free-form field gets it somewhere.
    { arbitrary: fc.tuple(shaped, fc.integer({ min: 50, max: 3_000 })).map(([v, n]): HostileBody => ({ json: v && typeof v === 'object' && !Array.isArray(v) ? { ...v, vars: nest(n), payload: nest(n), meta: { deep: nest(n) } } : nest(n) })), weight: 1 },
    { arbitrary: anyJson().map((json): HostileBody => ({ json })), weight: 1 },
    { arbitrary: rawBodyArb(shaped), weight: 2 },
  );
}
