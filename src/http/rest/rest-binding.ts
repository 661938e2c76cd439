// REST as a binding of the registry: where each input field comes from (path, query, body, header) and how the output answers.
import type { Context } from 'koa';
import type { OperationRegistry, ParsedInput } from '../../application/operation-registry.js';
import type { AnyOperation } from '../../application/operation.js';
import type { Principal } from '../../auth/principal.js';
import { ValidationError } from '../../domain/errors.js';
import { zodIssues } from '../../lib/zod-issues.js';
import { readJsonBody } from '../../transport/read-body.js';
import { checkStorable, headerValue, queryObject } from '../request-input.js';
import type { BoundRoute, HttpMethod, RouteResponse } from '../route.js';

/** One REST route of one operation. Path parameters are named like input fields (`:id` fills `id`). */
export interface RestBinding {
  operation: string;
  method: HttpMethod;
  path: string;
  /** Request headers that fill input fields (`Idempotency-Key` fills `idempotencyKey`). */
  headers?: { name: string; field: string; description: string }[];
  /** Status of a success (default 200) and its description. */
  status?: number;
  success?: string;
  /** Another answer for some outputs (a replayed start is a 200, not a 201); documented in `alsoAnswers`. */
  respond?(output: never): RouteResponse;
  alsoAnswers?: Record<number, string>;
  /** The media type of a success that is not JSON (an SVG drawing); `respond` then answers the body as text. */
  mediaType?: string;
  /** Refusals worth naming beyond 400/401/403, by status. */
  errors?: Record<number, string>;
  bodyLimit?: number;
  /** Bound only when the operation is registered (the test clock exists only with TEST_CLOCK=1). */
  optional?: boolean;
}

const BODY_METHODS: ReadonlySet<HttpMethod> = new Set(['post', 'put', 'patch']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The bound route, or null for an optional binding whose operation is not registered. */
export function bindOperation(registry: OperationRegistry, binding: RestBinding): BoundRoute | null {
  const op = registry.get(binding.operation);
  if (!op) {
    if (binding.optional) return null;
    throw new Error(`REST binding ${binding.method} ${binding.path} names no operation ${binding.operation}`);
  }
  const fields = Object.keys(op.input.shape);
  const path = [...binding.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  for (const p of path) if (!fields.includes(p)) throw new Error(`REST binding ${binding.path}: :${p} is no input field of ${op.name}`);
  const headers = binding.headers ?? [];
  const rest = fields.filter((f) => !path.includes(f) && !headers.some((h) => h.field === f));
  const takesBody = BODY_METHODS.has(binding.method) && rest.length > 0;
  const parts = { path, query: takesBody ? [] : rest, body: takesBody ? rest : [], headers };
  const partOf = (field: string): string =>
    path.includes(field) ? 'path parameters' : headers.find((h) => h.field === field)?.name ?? (takesBody ? 'body' : 'query');
  const status = binding.status ?? 200;

  const readInput = async (ctx: Context): Promise<ParsedInput> => {
    // The router's path parameters (koa's Context leaves `params` untyped).
    const routeParams: unknown = ctx.params;
    const params: Record<string, unknown> = isPlainObject(routeParams) ? { ...routeParams } : {};
    checkStorable(params, 'path parameters');
    let fromRequest: Record<string, unknown> = {};
    if (takesBody) {
      const body = (await readJsonBody(ctx, binding.bodyLimit)) ?? {};
      if (!isPlainObject(body)) throw new ValidationError([{ path: '', message: 'must be a JSON object' }], 'Invalid body');
      fromRequest = body;
    } else if (parts.query.length > 0 || binding.method === 'get') {
      const query = queryObject(ctx);
      checkStorable(query, 'query');
      // Query parameters an operation does not take are ignored, as on any REST API.
      for (const f of parts.query) if (f in query) fromRequest[f] = query[f];
    }
    for (const field of [...path, ...headers.map((h) => h.field)])
      if (field in fromRequest) throw new ValidationError([{ path: field, message: `comes from the ${partOf(field)}, not the ${takesBody ? 'body' : 'query'}` }], `Invalid ${takesBody ? 'body' : 'query'}`);
    const input: Record<string, unknown> = { ...fromRequest, ...params };
    for (const h of headers) {
      const value = headerValue(ctx, h.name);
      if (value !== undefined) input[h.field] = value;
    }
    return parseByPart(op, input, partOf, takesBody ? 'body' : 'request');
  };

  return {
    method: binding.method,
    path: binding.path,
    summary: op.summary,
    description: op.description,
    tag: op.feature,
    access: op.role,
    allowRestricted: op.allowRestricted,
    operationId: op.name,
    input: op.input,
    body: takesBody ? op.input : undefined,
    bodyLimit: binding.bodyLimit,
    headers: headers.map((h) => ({ name: h.name, required: false, description: h.description })),
    responses: {
      [status]: { description: binding.success ?? 'Done', schema: op.output, ...(binding.mediaType ? { mediaType: binding.mediaType } : {}) },
      ...Object.fromEntries(Object.entries(binding.alsoAnswers ?? {}).map(([s, description]) => [s, { description, schema: op.output }])),
      ...Object.fromEntries(Object.entries(binding.errors ?? {}).map(([s, description]) => [s, { description }])),
    },
    parts,
    example: op.example === undefined ? undefined : withoutFields(op.example, [...path, ...headers.map((h) => h.field)]),
    invoke: async (principal: Principal | null, ctx: Context) => {
      const output = await registry.callWith(op.name, principal, () => readInput(ctx), { ip: ctx.ip ?? null });
      return binding.respond ? binding.respond(output as never) : { status, body: output };
    },
  };
}

/** Parses the assembled input; a failure names the part of the request its first invalid field came from. */
function parseByPart(op: AnyOperation, input: Record<string, unknown>, partOf: (field: string) => string, whole: string): ParsedInput {
  const result = op.input.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0]?.path[0];
  throw new ValidationError(zodIssues(result.error), `Invalid ${typeof first === 'string' ? partOf(first) : whole}`);
}

function withoutFields(value: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !fields.includes(k)));
}
