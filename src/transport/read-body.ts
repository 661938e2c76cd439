// Reads a request body once, raw bytes kept for signature checks, within a size cap (413 beyond).
import getRawBody from 'raw-body';
import type { Context } from 'koa';
import { DomainError, ValidationError } from '../domain/errors.js';
import { jsonTextProblem } from './json-text-limits.js';

export const JSON_LIMIT = 1024 * 1024;

/** Returns the raw body, reading it on first call; over `limit` bytes is a 413. */
export async function readRawBody(ctx: Context, limit = JSON_LIMIT): Promise<Buffer> {
  if (ctx.state.rawBody) return ctx.state.rawBody as Buffer;
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new DomainError('too_large', 'Request body too large', 'too_large');
  try {
    ctx.state.rawBody = await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
  } catch (err) {
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.too.large' || e.status === 413) throw new DomainError('too_large', 'Request body too large', 'too_large');
    throw new DomainError('bad_body', 'Could not read the request body', 'invalid_input');
  }
  return ctx.state.rawBody as Buffer;
}

/** Parses a JSON body (empty body = undefined); malformed JSON is a 400 `{ error }`. */
export async function readJsonBody(ctx: Context, limit = JSON_LIMIT): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return undefined;
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) throw new DomainError('unsupported_media_type', 'Body must be application/json', 'unsupported_media');
  const text = raw.toString('utf8');
  checkJsonText(text);
  try {
    return JSON.parse(text);
  } catch {
    throw new DomainError('invalid_json', 'Invalid JSON body', 'invalid_input');
  }
}

/** 400 with an issue when a JSON text nests too deep or holds text PostgreSQL cannot store (json-text-limits.ts). */
export function checkJsonText(text: string): void {
  const problem = jsonTextProblem(text);
  if (problem) throw new ValidationError([{ path: 'body', message: problem }], 'Invalid JSON body');
}
