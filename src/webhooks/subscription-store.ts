// Webhook subscriptions in PostgreSQL: create (secret shown once), list (no secrets), find, delete.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { deriveSecretKey, openSecret, sealSecret } from '../auth/secret-box.js';

/** The key webhook secrets are sealed under (AES-256-GCM, the subscription id as authenticated data). */
export function webhookSealKey(secretKey: Buffer): Buffer {
  return deriveSecretKey(secretKey, 'webhook-subscription-secret/v1');
}

/** What the API shows of a subscription (never the secret). */
export interface WebhookSubscription {
  id: string;
  url: string;
  events: string[];
  createdBy: string;
  createdAt: number;
}

/** Spec "Limits": subscriptions listed at most 500. */
export const SUBSCRIPTIONS_LISTED = 500;

export function newSubscriptionId(): string {
  return `whs_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
}

/** `whsec_` + 32 random bytes (base64url). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** A `webhook_subscriptions` row: `events` is the jsonb list written by `createSubscription`, `created_at` a bigint string. */
interface SubscriptionDbRow {
  id: string;
  url: string;
  events: string[];
  secret_sealed: string;
  created_by: string;
  created_at: string;
}

function toSubscription(r: SubscriptionDbRow): WebhookSubscription {
  return { id: r.id, url: r.url, events: r.events, createdBy: r.created_by, createdAt: Number(r.created_at) };
}

export async function createSubscription(
  q: Queryable,
  sealKey: Buffer,
  input: { url: string; events: string[]; createdBy: string },
  now: number,
): Promise<{ subscription: WebhookSubscription; secret: string }> {
  const id = newSubscriptionId();
  const secret = newWebhookSecret();
  const { rows } = await q.query<SubscriptionDbRow>(
    `INSERT INTO webhook_subscriptions (id, url, events, secret_sealed, created_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [id, input.url, JSON.stringify(input.events), sealSecret(sealKey, secret, id), input.createdBy, now],
  );
  return { subscription: toSubscription(rows[0]), secret };
}

/** Newest first, at most 500. */
export async function listSubscriptions(q: Queryable): Promise<WebhookSubscription[]> {
  const { rows } = await q.query<SubscriptionDbRow>('SELECT * FROM webhook_subscriptions ORDER BY created_at DESC, id DESC LIMIT $1', [SUBSCRIPTIONS_LISTED]);
  return rows.map(toSubscription);
}

export async function findSubscription(q: Queryable, id: string): Promise<WebhookSubscription | null> {
  const { rows } = await q.query<SubscriptionDbRow>('SELECT * FROM webhook_subscriptions WHERE id = $1', [id]);
  return rows[0] ? toSubscription(rows[0]) : null;
}

/** The subscription with its secret opened, for signing a delivery; null when it was deleted. */
export async function subscriptionForSigning(q: Queryable, sealKey: Buffer, id: string): Promise<(WebhookSubscription & { secret: string }) | null> {
  const { rows } = await q.query<SubscriptionDbRow>('SELECT * FROM webhook_subscriptions WHERE id = $1', [id]);
  if (!rows[0]) return null;
  return { ...toSubscription(rows[0]), secret: openSecret(sealKey, rows[0].secret_sealed, id) };
}

/** Deletes the subscription and its deliveries (pending retries then find nothing to send); false when absent. */
export async function deleteSubscription(q: Queryable, id: string): Promise<boolean> {
  const res = await q.query('DELETE FROM webhook_subscriptions WHERE id = $1', [id]);
  return (res.rowCount ?? 0) > 0;
}
