// Node type `http.call`: an external step. Its request is recorded in the slice and made outside the order's
// transaction and lock with a stable Idempotency-Key; the answer picks the branch (runtime contract section 5).
import { z } from 'zod';
import { durationSchema, parseDuration } from '../platform/duration.js';
import type { ExternalAnswer, ExternalCall, ExternalRequest, NodeTypeDef, RetryPolicy, StepContext, StepResult } from '../engine/node-type.js';
import { renderJsonTemplate } from '../engine/template.js';
import { RetryableError, TerminalError } from '../domain/errors.js';
import { isSuccessStatus, mayPassLater } from '../engine/runtime/run-decisions.js';
import { isOutboundCallUrl, OUTBOUND_CALL_URL_RULE } from '../lib/outbound-call-url.js';

/** Longest timeout a flow may set: a call holds no lock, but its lease and a worker slot last this long. */
const MAX_TIMEOUT_MS = 120_000;
/** Most retries after the first attempt. */
const MAX_RETRIES = 20;
/** Headers the host sets itself; a flow may not send its own. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'content-type', 'idempotency-key', 'x-service-signature', 'connection', 'transfer-encoding', 'user-agent']);

/** A header value HTTP can carry: tab, visible ASCII, space and Latin-1 (RFC 9110 field-value; no CR, LF or other control). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

const urlSchema = z
  .string()
  .max(2048)
  .refine(isOutboundCallUrl, OUTBOUND_CALL_URL_RULE);
const methodSchema = z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const timeoutSchema = durationSchema.refine((d) => parseDuration(d) <= MAX_TIMEOUT_MS, `At most ${MAX_TIMEOUT_MS / 1000}s`);

export const httpCallParams = z.strictObject({
  method: methodSchema.default('POST'),
  url: urlSchema,
  headers: z
    .record(
      z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'Header names are letters, digits and -'),
      // What HTTP lets a header value carry (Node's own rule): a CR or LF would split the request, and Node refuses to send it.
      z.string().max(1024).regex(HEADER_VALUE, 'Header values may not contain control characters (CR, LF, NUL, ...) or characters outside Latin-1'),
    )
    .refine((h) => Object.keys(h).every((k) => !RESERVED_HEADERS.has(k.toLowerCase())), 'Content-Type, Idempotency-Key, the signature and transport headers are set by the service')
    .refine((h) => Object.keys(h).length <= 20, 'At most 20 headers')
    .optional(),
  /** A JSON template over order, vars and nodes. */
  body: z.unknown().optional(),
  timeout: timeoutSchema.default('10s'),
  retry: z
    .strictObject({ attempts: z.number().int().min(0).max(MAX_RETRIES), backoff: durationSchema.default('10s') })
    .default({ attempts: 5, backoff: '10s' }),
  /** An integration id whose secret signs every request (and the compensating one). */
  secret: z.string().min(1).max(100).optional(),
  compensate: z.strictObject({ method: methodSchema.default('POST'), url: urlSchema, body: z.unknown().optional() }).optional(),
});

export type HttpCallParams = z.infer<typeof httpCallParams>;

/** What nodes.<id> holds: the last answer and how many attempts it took. */
interface HttpCallOutput {
  status: number | null;
  body: unknown;
  attempts: number;
}

function scope(ctx: StepContext<HttpCallParams>): Record<string, unknown> {
  return { order: ctx.order, vars: ctx.vars, nodes: ctx.nodes };
}

function request(ctx: StepContext<HttpCallParams>, method: string, url: string, body: unknown): ExternalRequest {
  const { params } = ctx;
  return {
    method,
    url,
    headers: { ...(params.headers ?? {}) },
    // GET and DELETE carry no body unless the flow gave one.
    body: body === undefined ? (method === 'GET' || method === 'DELETE' ? null : {}) : renderJsonTemplate(body, scope(ctx)),
    timeoutMs: parseDuration(params.timeout),
    signWith: params.secret ?? null,
  };
}

/** A failure that carries the output (`{ status, body, attempts }`) for nodes.<id>. */
function withOutput<E extends Error>(err: E, output: HttpCallOutput): E {
  return Object.assign(err, { output });
}

function outcome(ctx: StepContext<HttpCallParams>, answer: ExternalAnswer): StepResult {
  const output: HttpCallOutput = { status: answer.status, body: answer.body, attempts: answer.attempt };
  const status = answer.status;
  if (isSuccessStatus(status)) return { branch: 'ok', output, summary: `HTTP ${status}` };
  if (status !== null && status >= 400 && status < 500 && !mayPassLater(status, false)) {
    // A refusal is the receiver's answer, not an outage: never retried. Unwired, it fails the run.
    if (ctx.wiredBranches.includes('rejected')) return { branch: 'rejected', output, summary: `Rejected: HTTP ${status}` };
    throw withOutput(new TerminalError(`The receiver refused the call: HTTP ${status}`, 'call_rejected'), output);
  }
  const why = status !== null ? `HTTP ${status}` : answer.error ?? 'no answer';
  if (answer.terminal) throw withOutput(new TerminalError(why, 'call_failed'), output);
  throw withOutput(new RetryableError(`The call failed: ${why}`, undefined, 'call_failed'), output);
}

export const httpCall: NodeTypeDef<HttpCallParams> = {
  type: 'http.call',
  kind: 'step',
  label: 'HTTP call',
  description:
    'Calls an HTTP service outside the order\'s transaction and lock (an external step). The request is recorded first; ' +
    'every attempt of one run carries the same Idempotency-Key. 2xx takes `ok`; a 4xx other than 408 and 429 takes ' +
    '`rejected` (not retried; unwired, the run fails); timeouts, 408, 429, 5xx and network errors are retried by `retry` ' +
    'as durable timers, then take `failed` (unwired: rollback). `compensate` is called on rollback and cancel.',
  params: httpCallParams,
  branches: () => ['ok', 'rejected', 'failed'],
  defaultBranch: 'ok',
  optionalBranches: ['rejected', 'failed'],
  failureBranch: 'failed',
  outputs: '{ status, body, attempts } (body: the answer\'s JSON up to 64 KiB, else its text cut)',
  retryPolicy(params): RetryPolicy {
    return { attempts: params.retry.attempts + 1, backoffMs: parseDuration(params.retry.backoff), factor: 2 };
  },
  run(ctx): ExternalCall {
    return { call: request(ctx, ctx.params.method, ctx.params.url, ctx.params.body) };
  },
  answer: outcome,
  undoable: (params) => params.compensate !== undefined,
  async compensate(ctx): Promise<ExternalCall | void> {
    const undo = ctx.params.compensate;
    if (!undo) return;
    return { call: request(ctx, undo.method, undo.url, undo.body) };
  },
};
