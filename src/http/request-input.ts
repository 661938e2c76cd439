// Shared checks on what a request carries before any handler or operation sees it.
import type { Context } from 'koa';
import { ValidationError } from '../domain/errors.js';
import { UNSTORABLE_TEXT } from '../transport/json-text-limits.js';

/** A path or query value with text PostgreSQL cannot store is a 400 before any handler runs. */
export function checkStorable(values: Record<string, unknown>, what: string): void {
  for (const [key, value] of Object.entries(values))
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string' && UNSTORABLE_TEXT.test(v))
        throw new ValidationError([{ path: key, message: 'contains a NUL character or an unpaired surrogate' }], `Invalid ${what}`);
}

/** Query strings arrive as strings (or arrays for repeats); schemas declare their coercions. */
export function queryObject(ctx: Context): Record<string, unknown> {
  return { ...ctx.query };
}

/** A header's value as one string (repeats joined with commas, as HTTP folds them); undefined when absent. */
export function headerValue(ctx: Context, name: string): string | undefined {
  const raw = ctx.headers[name.toLowerCase()];
  return Array.isArray(raw) ? raw.join(',') : raw;
}
