// Connected apps: one row per grant a person gave an app (what the Account page lists and Disconnect ends).
import type { Queryable } from '../db/db.js';
import type { Role } from './roles.js';

/** The endpoint a connected app reaches: the MCP server or the A2A agent. */
export type AppKind = 'mcp' | 'a2a';

export interface ConnectedApp {
  /** The authorization server's grant id. */
  id: string;
  personId: string;
  clientId: string;
  appName: string;
  kind: AppKind;
  /** The endpoint's address (BASE_URL/mcp or BASE_URL/a2a). */
  resource: string;
  role: Role;
  connectedAt: number;
  revokedAt: number | null;
}

/** An `oauth_grants` row as pg returns it (bigint columns as text). */
interface ConnectedAppDbRow {
  id: string;
  person_id: string;
  client_id: string;
  app_name: string;
  kind: AppKind;
  resource: string;
  role: Role;
  connected_at: string;
  revoked_at: string | null;
}

function toApp(r: ConnectedAppDbRow): ConnectedApp {
  return {
    id: r.id,
    personId: r.person_id,
    clientId: r.client_id,
    appName: r.app_name,
    kind: r.kind,
    resource: r.resource,
    role: r.role,
    connectedAt: Number(r.connected_at),
    revokedAt: r.revoked_at === null ? null : Number(r.revoked_at),
  };
}

export async function recordConnectedApp(q: Queryable, app: Omit<ConnectedApp, 'revokedAt'>): Promise<void> {
  await q.query(
    `INSERT INTO oauth_grants (id, person_id, client_id, app_name, kind, resource, role, connected_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (id) DO UPDATE SET role = EXCLUDED.role, connected_at = EXCLUDED.connected_at, revoked_at = NULL`,
    [app.id, app.personId, app.clientId, app.appName, app.kind, app.resource, app.role, app.connectedAt],
  );
}

/** The grant behind a token, revoked or not. */
export async function findConnectedApp(q: Queryable, id: string): Promise<ConnectedApp | null> {
  const { rows } = await q.query<ConnectedAppDbRow>('SELECT * FROM oauth_grants WHERE id = $1', [id]);
  return rows[0] ? toApp(rows[0]) : null;
}

/** A person's live connections, newest first. */
export async function connectedAppsOf(q: Queryable, personId: string): Promise<ConnectedApp[]> {
  const { rows } = await q.query<ConnectedAppDbRow>('SELECT * FROM oauth_grants WHERE person_id = $1 AND revoked_at IS NULL ORDER BY connected_at DESC, id', [personId]);
  return rows.map(toApp);
}

/** Marks a person's grant revoked; null when it is not theirs or already revoked. */
export async function revokeConnectedApp(q: Queryable, personId: string, id: string, now: number): Promise<ConnectedApp | null> {
  const { rows } = await q.query<ConnectedAppDbRow>(
    'UPDATE oauth_grants SET revoked_at = $3 WHERE id = $1 AND person_id = $2 AND revoked_at IS NULL RETURNING *',
    [id, personId, now],
  );
  return rows[0] ? toApp(rows[0]) : null;
}
