// The opaque list cursor: the last row's (created_at, id) and the filters, signed with HMAC-SHA256 so a forged one is a 400.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../domain/errors.js';

/** Where the previous page ended, in (created_at DESC, id DESC) order. */
export interface ListPosition {
  createdAt: number;
  id: string;
}

/** Derives the cursor-signing key from the service secret key (one purpose per key). */
export function cursorKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('orders-list-cursor/v1').digest();
}

function sign(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload).digest();
}

/**
 * `<base64url payload>.<base64url HMAC>`; the payload is `{ v, c, i, f }` where `f` is a digest of
 * the filters it was issued for, so a cursor only pages the listing that produced it.
 */
export function encodeCursor(key: Buffer, position: ListPosition, filters: string): string {
  const payload = Buffer.from(JSON.stringify({ v: 1, c: position.createdAt, i: position.id, f: filters })).toString('base64url');
  return `${payload}.${sign(key, payload).toString('base64url')}`;
}

const invalid = () => new ValidationError([{ path: 'cursor', message: 'is not a cursor issued by this API for this listing' }], 'Unknown cursor');

/** Checks the signature and the filters; anything not issued by encodeCursor for the same filters is a 400. */
export function decodeCursor(key: Buffer, cursor: string, filters: string): ListPosition {
  const dot = cursor.indexOf('.');
  if (dot <= 0) throw invalid();
  const payload = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
  const want = sign(key, payload);
  if (given.length !== want.length || !timingSafeEqual(given, want)) throw invalid();
  let parsed: { v?: unknown; c?: unknown; i?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw invalid();
  }
  if (parsed.v !== 1 || typeof parsed.c !== 'number' || typeof parsed.i !== 'string' || parsed.f !== filters) throw invalid();
  return { createdAt: parsed.c, id: parsed.i };
}
