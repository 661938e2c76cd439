// oidc-provider's storage in PostgreSQL: one table of JSON payloads by model and id, with the lookups the provider needs.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../db/db.js';

/** Models whose records belong to a grant: revoking the grant (Disconnect) destroys them all at once. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/** A registered client no grant ever used is deleted this long after it registered (contract 12). */
export const UNUSED_CLIENT_TTL_MS = 24 * 3_600_000;

/**
 * The key in a client's stored payload that says when it registered, by the service's clock (epoch ms).
 * The provider ignores it: a client keeps only the metadata it recognises.
 */
const REGISTERED_AT = 'x_registered_at';

/**
 * One adapter per model, as oidc-provider asks (`new Adapter(name)`). Expiry is the provider's own
 * clock (real time, seconds), kept in milliseconds so expired rows can be purged by an index; an
 * expired row is never answered. A client is kept without expiry; `now` (the service's clock) stamps
 * when it registered, for `purgeUnusedOauthClients`.
 */
export function pgOauthAdapter(db: Queryable, now: () => number): new (model: string) => Adapter {
  return class PgOauthAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, given: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : null;
      const payload = this.model === 'Client' ? { ...given, [REGISTERED_AT]: now() } : given;
      await db.query(
        `INSERT INTO oauth_store (model, id, payload, grant_id, uid, user_code, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, uid = EXCLUDED.uid,
           user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [this.model, id, JSON.stringify(payload), GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null, payload.uid ?? null, payload.userCode ?? null, expiresAt],
      );
    }

    private async findWhere(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const { rows } = await db.query<{ payload: AdapterPayload; consumed_at: string | null }>(
        `SELECT payload, consumed_at FROM oauth_store WHERE model = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3)`,
        [this.model, value, Date.now()],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.consumed_at === null ? row.payload : { ...row.payload, consumed: Math.floor(Number(row.consumed_at) / 1000) };
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('id', id);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await db.query('UPDATE oauth_store SET consumed_at = $3 WHERE model = $1 AND id = $2', [this.model, id, Date.now()]);
    }

    async destroy(id: string): Promise<void> {
      await db.query('DELETE FROM oauth_store WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oauth_store WHERE grant_id = $1', [grantId]);
    }
  };
}

/**
 * Deletes clients registered at least `UNUSED_CLIENT_TTL_MS` before `now` (the service's clock) that no
 * grant ever used (no row in oauth_grants, revoked ones included), with their registration access tokens.
 * A client stored before registration times were kept counts from the provider's `client_id_issued_at`.
 */
export async function purgeUnusedOauthClients(db: Queryable, now: number): Promise<number> {
  const { rows } = await db.query<{ removed: string }>(
    `WITH gone AS (
       DELETE FROM oauth_store c
        WHERE c.model = 'Client'
          AND COALESCE((c.payload->>'${REGISTERED_AT}')::bigint, (c.payload->>'client_id_issued_at')::bigint * 1000, 0) <= $1
          AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id)
       RETURNING c.id
     ), tokens AS (
       DELETE FROM oauth_store t USING gone WHERE t.model = 'RegistrationAccessToken' AND t.payload->>'clientId' = gone.id RETURNING t.id
     )
     SELECT count(*)::text AS removed FROM gone`,
    [now - UNUSED_CLIENT_TTL_MS],
  );
  return Number(rows[0]?.removed ?? 0);
}

/** Removes expired records (the provider never reads them again). */
export async function purgeExpiredOauthRecords(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM oauth_store WHERE expires_at IS NOT NULL AND expires_at < $1', [Date.now()]);
  return rowCount ?? 0;
}
