// Integrations in PostgreSQL: create (secret shown once), list, rotate with a 24-hour overlap, revoke, verify-time lookup.
import type { Queryable } from '../../db/db.js';
import { deriveSecretKey, openSecret, sealSecret } from '../../auth/secret-box.js';
import { newId, randomSecret } from '../../auth/secret-tokens.js';
import type { OrderChannel } from '../../domain/order-input-schema.js';
import type { Integration } from './integration.js';

/** Spec "Limits": the secret replaced by a rotation keeps working this long. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The key integration secrets are sealed under (derived from SECRET_KEY; the integration id is authenticated data). */
export function integrationSealKey(secretKey: Buffer): Buffer {
  return deriveSecretKey(secretKey, 'integration-secret/v1');
}

/** `whsec_` + 32 random bytes (base64url): the HMAC key the integration signs with. */
export function newIntegrationSecret(): string {
  return `whsec_${randomSecret(32)}`;
}

export interface NewIntegration {
  name: string;
  events: string[];
  startOrders: boolean;
  flows: string[];
  channel: OrderChannel | null;
  createdBy: string;
}

/** An active integration with the secrets a signature may be made with right now (current first). */
export interface VerifyingIntegration {
  integration: Integration;
  secrets: string[];
}

interface IntegrationRow {
  id: string;
  name: string;
  events: string[];
  start_orders: boolean;
  flows: string[];
  channel: OrderChannel | null;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_expires_at: string | null;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

function toIntegration(r: IntegrationRow): Integration {
  return {
    id: r.id,
    name: r.name,
    events: r.events,
    startOrders: r.start_orders,
    flows: r.flows,
    channel: r.channel,
    createdAt: Number(r.created_at),
    createdBy: r.created_by,
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
    previousExpiresAt: num(r.previous_expires_at),
  };
}

export async function createIntegration(
  q: Queryable,
  sealKey: Buffer,
  input: NewIntegration,
  now: number,
): Promise<{ integration: Integration; secret: string }> {
  const id = newId('int');
  const secret = newIntegrationSecret();
  const { rows } = await q.query<IntegrationRow>(
    `INSERT INTO integrations (id, name, events, start_orders, flows, channel, secret_sealed, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [id, input.name, JSON.stringify(input.events), input.startOrders, JSON.stringify(input.flows), input.channel,
      sealSecret(sealKey, secret, id), input.createdBy, now],
  );
  return { integration: toIntegration(rows[0]), secret };
}

/** Every integration, revoked ones included (they show `revokedAt`), newest first. */
export async function listIntegrations(q: Queryable): Promise<Integration[]> {
  const { rows } = await q.query<IntegrationRow>('SELECT * FROM integrations ORDER BY created_at DESC, id DESC');
  return rows.map(toIntegration);
}

/**
 * Issues a new secret; the current one becomes the overlap secret until `now + 24 h`, replacing
 * any earlier overlap. Null for an unknown or revoked integration.
 */
export async function rotateIntegration(q: Queryable, sealKey: Buffer, id: string, now: number): Promise<{ integration: Integration; secret: string } | null> {
  const secret = newIntegrationSecret();
  const { rows } = await q.query<IntegrationRow>(
    `UPDATE integrations SET previous_secret_sealed = secret_sealed, previous_expires_at = $3, secret_sealed = $2
     WHERE id = $1 AND revoked_at IS NULL RETURNING *`,
    [id, sealSecret(sealKey, secret, id), now + ROTATION_OVERLAP_MS],
  );
  return rows[0] ? { integration: toIntegration(rows[0]), secret } : null;
}

/** Revokes at once, the overlap secret included. Null when absent or already revoked. */
export async function revokeIntegration(q: Queryable, id: string, now: number): Promise<Integration | null> {
  const { rows } = await q.query<IntegrationRow>(
    `UPDATE integrations SET revoked_at = $2, previous_secret_sealed = NULL, previous_expires_at = NULL
     WHERE id = $1 AND revoked_at IS NULL RETURNING *`,
    [id, now],
  );
  return rows[0] ? toIntegration(rows[0]) : null;
}

/** The active integration `id` with its usable secrets (the overlap secret only before it expires); null when unknown or revoked. */
export async function integrationForVerifying(q: Queryable, sealKey: Buffer, id: string, now: number): Promise<VerifyingIntegration | null> {
  const { rows } = await q.query<IntegrationRow>('SELECT * FROM integrations WHERE id = $1 AND revoked_at IS NULL', [id]);
  const row = rows[0];
  if (!row) return null;
  const sealed = [row.secret_sealed];
  if (row.previous_secret_sealed !== null && row.previous_expires_at !== null && Number(row.previous_expires_at) > now)
    sealed.push(row.previous_secret_sealed);
  // A secret sealed under another SECRET_KEY cannot be opened: it verifies nothing (rotate to replace it).
  const secrets = sealed.flatMap((value) => {
    try {
      return [openSecret(sealKey, value, id)];
    } catch {
      return [];
    }
  });
  return { integration: toIntegration(row), secrets };
}

/** Records a verified use (`lastUsedAt`); never moves it backwards. */
export async function touchIntegration(q: Queryable, id: string, now: number): Promise<void> {
  await q.query('UPDATE integrations SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2)', [id, now]);
}
