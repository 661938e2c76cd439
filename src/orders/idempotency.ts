// Idempotency keys for order starts: header rules, the body fingerprint, and the claim under a UNIQUE constraint.
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { DomainError, ValidationError } from '../domain/errors.js';
import { canonicalJson } from './canonical-json.js';

/** Spec "Limits": an Idempotency-Key is at most 255 characters. */
export const IDEMPOTENCY_KEY_MAX = 255;

/** The scope of keys sent to POST /api/v1/orders (other start routes use their own scope). */
export const API_ORDERS_SCOPE = 'api.orders';

/** The scope of keys sent to POST /api/v1/orders/:id/returns (contract 18). */
export const API_RETURNS_SCOPE = `${API_ORDERS_SCOPE}.returns`;

/** The scope of keys given to the agents' place_order (A2A derives one per caller and messageId). */
export const AGENT_ORDERS_SCOPE = 'agents.place_order';

/** Reads the `Idempotency-Key` header: absent is null; empty or over 255 characters is a 400. */
export function readIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (header.length === 0 || header.length > IDEMPOTENCY_KEY_MAX)
    throw new ValidationError(
      [{ path: 'Idempotency-Key', message: `must be 1 to ${IDEMPOTENCY_KEY_MAX} characters` }],
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} characters`,
    );
  return header;
}

/** Hex SHA-256 of the canonical JSON of `value` (property order ignored). */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/** A key and the fingerprint of the body it was sent with. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  fingerprint: string;
}

export type ClaimResult = { claimed: true } | { claimed: false; orderId: string };

/**
 * Claims `claim.key` for `orderId` inside the caller's transaction. A concurrent claim of the
 * same key waits on the unique index until this transaction ends, so racing requests see one
 * winner. An existing key with another fingerprint is a 422 (nothing starts); with the same
 * fingerprint the caller replays the recorded order.
 */
export async function claimIdempotencyKey(q: Queryable, claim: IdempotencyClaim, orderId: string, now: number): Promise<ClaimResult> {
  const inserted = await q.query(
    `INSERT INTO idempotency_keys (scope, key, fingerprint, order_id, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT ON CONSTRAINT idempotency_keys_scope_key_unique DO NOTHING RETURNING order_id`,
    [claim.scope, claim.key, claim.fingerprint, orderId, now],
  );
  if (inserted.rowCount) return { claimed: true };
  const { rows } = await q.query<{ fingerprint: string; order_id: string }>(
    'SELECT fingerprint, order_id FROM idempotency_keys WHERE scope = $1 AND key = $2',
    [claim.scope, claim.key],
  );
  const row = rows[0];
  // The other claimer committed (else our insert would have gone through); absent only if the row was removed meanwhile.
  if (!row) throw new DomainError('idempotency_race', 'The idempotency key changed during the request; retry it', 'conflict');
  if (row.fingerprint !== claim.fingerprint)
    throw new DomainError('idempotency_mismatch', 'This Idempotency-Key was already used with a different request body', 'unprocessable');
  return { claimed: false, orderId: row.order_id };
}

/**
 * The order `key` was claimed for, or null when it was not: the claim commits with the order's
 * start, so a start that rolled back (or never ran) left no claim and started nothing.
 */
export async function orderOfKey(q: Queryable, scope: string, key: string): Promise<string | null> {
  const { rows } = await q.query<{ order_id: string }>('SELECT order_id FROM idempotency_keys WHERE scope = $1 AND key = $2', [scope, key]);
  return rows[0]?.order_id ?? null;
}
