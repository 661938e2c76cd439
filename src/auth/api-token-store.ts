// API tokens in PostgreSQL: `svc_live_<random>`, only the SHA-256 and the first 12 characters kept.
import type { Queryable } from '../db/db.js';
import type { Role } from './roles.js';
import { newId, randomSecret, sha256 } from './secret-tokens.js';

export const TOKEN_PREFIX = 'svc_live_';
export const TOKEN_PREFIX_SHOWN = 12;
export const tokenLifetimes = ['30d', '90d', '1y', 'never'] as const;
export type TokenLifetime = (typeof tokenLifetimes)[number];
const DAY = 86_400_000;
const LIFETIME_MS: Record<TokenLifetime, number | null> = { '30d': 30 * DAY, '90d': 90 * DAY, '1y': 365 * DAY, never: null };
/** Tokens expiring within this are highlighted (spec "Limits"). */
export const TOKEN_EXPIRY_WARNING_MS = 14 * DAY;
/** `last_used_at` is written at most this often per token. */
const LAST_USED_WRITE_MS = 60_000;

export interface ApiToken {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  createdBy: string;
  createdById: string | null;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
  expiredAuditedAt: number | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** An `api_tokens` row as pg returns it (bigint columns as text). */
interface ApiTokenDbRow {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  created_by: string;
  created_by_id: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  expired_audited_at: string | null;
}

function toToken(r: ApiTokenDbRow): ApiToken {
  return {
    id: r.id,
    name: r.name,
    role: r.role,
    prefix: r.prefix,
    createdBy: r.created_by,
    createdById: r.created_by_id,
    createdAt: Number(r.created_at),
    expiresAt: num(r.expires_at),
    lastUsedAt: num(r.last_used_at),
    revokedAt: num(r.revoked_at),
    expiredAuditedAt: num(r.expired_audited_at),
  };
}

/** What the API shows of a token: never the secret or its hash. */
export function apiTokenView(t: ApiToken, now: number) {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    prefix: t.prefix,
    createdBy: t.createdBy,
    createdAt: t.createdAt,
    expiresAt: t.expiresAt,
    lastUsedAt: t.lastUsedAt,
    revokedAt: t.revokedAt,
    expired: t.expiresAt !== null && t.expiresAt <= now,
    expiresSoon: t.expiresAt !== null && t.expiresAt > now && t.expiresAt - now <= TOKEN_EXPIRY_WARNING_MS,
  };
}

export function expiryFor(lifetime: TokenLifetime, now: number): number | null {
  const ms = LIFETIME_MS[lifetime];
  return ms === null ? null : now + ms;
}

export async function insertApiToken(
  q: Queryable,
  t: { name: string; role: Role; lifetime: TokenLifetime; createdBy: string; createdById: string | null; now: number },
): Promise<{ token: ApiToken; secret: string }> {
  const secret = TOKEN_PREFIX + randomSecret(32);
  const { rows } = await q.query<ApiTokenDbRow>(
    `INSERT INTO api_tokens (id, name, role, token_hash, prefix, created_by, created_by_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
    [
      newId('tok'),
      t.name,
      t.role,
      sha256(secret),
      secret.slice(0, TOKEN_PREFIX_SHOWN),
      t.createdBy,
      t.createdById,
      t.now,
      expiryFor(t.lifetime, t.now),
    ],
  );
  return { token: toToken(rows[0]), secret };
}

export async function listApiTokens(q: Queryable): Promise<ApiToken[]> {
  const { rows } = await q.query<ApiTokenDbRow>('SELECT * FROM api_tokens WHERE revoked_at IS NULL ORDER BY created_at DESC, id');
  return rows.map(toToken);
}

/**
 * The person a token acts for, read in the same query as the token: `workspace` for a token made
 * with the workspace password (no owner), `missing` when its owner id names nobody.
 */
export type TokenOwner =
  | { kind: 'workspace' }
  | { kind: 'missing'; id: string }
  | { kind: 'person'; id: string; email: string; role: Role; enabled: boolean; passwordTemporary: boolean; totpEnabledAt: number | null };

/** The owner columns `findApiTokenBySecret` joins beside the token: all null when no person matched. */
type TokenOwnerDbRow =
  | { owner_id: null; owner_email: null; owner_role: null; owner_enabled: null; owner_password_temporary: null; owner_totp_enabled_at: null }
  | { owner_id: string; owner_email: string; owner_role: Role; owner_enabled: boolean; owner_password_temporary: boolean; owner_totp_enabled_at: string | null };

function toOwner(r: ApiTokenDbRow & TokenOwnerDbRow): TokenOwner {
  if (r.created_by_id === null) return { kind: 'workspace' };
  if (r.owner_id === null) return { kind: 'missing', id: r.created_by_id };
  return {
    kind: 'person',
    id: r.owner_id,
    email: r.owner_email,
    role: r.owner_role,
    enabled: r.owner_enabled,
    passwordTemporary: r.owner_password_temporary,
    totpEnabledAt: num(r.owner_totp_enabled_at),
  };
}

/** A token by its secret with its owner's current state (one round trip, paid on a token's first use on a node and after every change; see api-token-cache.ts). */
export async function findApiTokenBySecret(q: Queryable, secret: string): Promise<{ token: ApiToken; owner: TokenOwner } | null> {
  const { rows } = await q.query<ApiTokenDbRow & TokenOwnerDbRow>(
    `SELECT t.*, p.id AS owner_id, p.email AS owner_email, p.role AS owner_role, p.enabled AS owner_enabled,
            p.password_temporary AS owner_password_temporary, p.totp_enabled_at AS owner_totp_enabled_at
     FROM api_tokens t LEFT JOIN people p ON p.id = t.created_by_id
     WHERE t.token_hash = $1`,
    [sha256(secret)],
  );
  return rows[0] ? { token: toToken(rows[0]), owner: toOwner(rows[0]) } : null;
}

/** Revokes a live token; null when it does not exist or was already revoked. */
export async function revokeApiToken(q: Queryable, id: string, now: number): Promise<ApiToken | null> {
  const { rows } = await q.query<ApiTokenDbRow>('UPDATE api_tokens SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING *', [id, now]);
  return rows[0] ? toToken(rows[0]) : null;
}

/** Records a use at most once a minute per token; returns the token as it now stands (the same object when nothing was written). */
export async function touchApiToken(q: Queryable, t: ApiToken, now: number): Promise<ApiToken> {
  if (t.lastUsedAt !== null && now - t.lastUsedAt < LAST_USED_WRITE_MS) return t;
  await q.query('UPDATE api_tokens SET last_used_at = $2 WHERE id = $1', [t.id, now]);
  return { ...t, lastUsedAt: now };
}

/** Claims the hourly `api.token_expired` audit slot of a token: true for exactly one caller per hour. */
export async function claimExpiredAudit(q: Queryable, id: string, now: number): Promise<boolean> {
  const { rowCount } = await q.query(
    `UPDATE api_tokens SET expired_audited_at = $2
     WHERE id = $1 AND (expired_audited_at IS NULL OR expired_audited_at <= $3)`,
    [id, now, now - 3_600_000],
  );
  return (rowCount ?? 0) > 0;
}
