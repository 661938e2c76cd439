// oidc-provider's storage in PostgreSQL: one table of JSON payloads by model and id, with the lookups the provider needs.
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../db/db.js';

/** Models whose records belong to a grant: revoking the grant (Disconnect) destroys them all at once. */
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

/**
 * One adapter per model, as oidc-provider asks (`new Adapter(name)`). Expiry is the provider's own
 * clock (real time, seconds), kept in milliseconds so expired rows can be purged by an index; an
 * expired row is never answered.
 */
export function pgOauthAdapter(db: Queryable): new (model: string) => Adapter {
  return class PgOauthAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? Date.now() + expiresIn * 1000 : null;
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

/** Removes expired records (the provider never reads them again). */
export async function purgeExpiredOauthRecords(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM oauth_store WHERE expires_at IS NOT NULL AND expires_at < $1', [Date.now()]);
  return rowCount ?? 0;
}
