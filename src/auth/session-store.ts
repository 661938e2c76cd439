// Dashboard sessions and two-factor sign-in challenges in PostgreSQL (only token hashes are stored).
import type { Queryable } from '../db/db.js';
import { newId, randomSecret, sha256 } from './secret-tokens.js';

export const SESSION_ABSOLUTE_MS = 30 * 86_400_000;
export const SESSION_IDLE_MS = 7 * 86_400_000;
/** Last use is written at most this often (spec "Limits"). */
export const SESSION_TOUCH_MS = 5 * 60_000;
export const CHALLENGE_MS = 10 * 60_000;

export interface SessionRow {
  id: string;
  personId: string | null;
  createdAt: number;
  lastUsedAt: number;
  userAgent: string | null;
  ip: string | null;
}

/** A `sessions` row as pg returns it (bigint columns as text). */
interface SessionDbRow {
  id: string;
  person_id: string | null;
  created_at: string;
  last_used_at: string;
  user_agent: string | null;
  ip: string | null;
}

function toSession(r: SessionDbRow): SessionRow {
  return {
    id: r.id,
    personId: r.person_id,
    createdAt: Number(r.created_at),
    lastUsedAt: Number(r.last_used_at),
    userAgent: r.user_agent,
    ip: r.ip,
  };
}

/** Creates a session and returns its id and the cookie token (the token exists only in the cookie). */
export async function createSession(
  q: Queryable,
  s: { personId: string | null; userAgent: string | null; ip: string | null; now: number },
): Promise<{ id: string; token: string }> {
  const id = newId('ses');
  const token = randomSecret(32);
  await q.query(
    `INSERT INTO sessions (id, token_hash, person_id, created_at, last_used_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $4, $5, $6)`,
    [id, sha256(token), s.personId, s.now, s.userAgent?.slice(0, 300) ?? null, s.ip],
  );
  return { id, token };
}

export async function findSessionByToken(q: Queryable, token: string): Promise<SessionRow | null> {
  const { rows } = await q.query<SessionDbRow>('SELECT * FROM sessions WHERE token_hash = $1', [sha256(token)]);
  return rows[0] ? toSession(rows[0]) : null;
}

/** True when the session is past its absolute or idle lifetime at `now`. */
export function sessionExpired(s: SessionRow, now: number): boolean {
  return now >= s.createdAt + SESSION_ABSOLUTE_MS || now >= s.lastUsedAt + SESSION_IDLE_MS;
}

/** Records use, at most every 5 minutes per session (the WHERE makes concurrent requests write once). */
export async function touchSession(q: Queryable, s: SessionRow, now: number): Promise<boolean> {
  if (now - s.lastUsedAt < SESSION_TOUCH_MS) return false;
  const { rowCount } = await q.query('UPDATE sessions SET last_used_at = $2 WHERE id = $1 AND last_used_at <= $3', [
    s.id,
    now,
    now - SESSION_TOUCH_MS,
  ]);
  return (rowCount ?? 0) > 0;
}

export async function listSessionsOfPerson(q: Queryable, personId: string): Promise<SessionRow[]> {
  const { rows } = await q.query<SessionDbRow>('SELECT * FROM sessions WHERE person_id = $1 ORDER BY last_used_at DESC', [personId]);
  return rows.map(toSession);
}

export async function findSession(q: Queryable, id: string): Promise<SessionRow | null> {
  const { rows } = await q.query<SessionDbRow>('SELECT * FROM sessions WHERE id = $1', [id]);
  return rows[0] ? toSession(rows[0]) : null;
}

export async function deleteSession(q: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await q.query('DELETE FROM sessions WHERE id = $1', [id]);
  return (rowCount ?? 0) > 0;
}

/** Ends every session of a person except `keepId`; also drops pending two-factor challenges. Returns how many ended. */
export async function deleteSessionsOfPerson(q: Queryable, personId: string, keepId: string | null = null): Promise<number> {
  const { rowCount } = await q.query('DELETE FROM sessions WHERE person_id = $1 AND id IS DISTINCT FROM $2', [personId, keepId]);
  if (keepId === null) await q.query('DELETE FROM sign_in_challenges WHERE person_id = $1', [personId]);
  return rowCount ?? 0;
}

/** Drops sessions no request can use any more (run with the daily retention job). */
export async function purgeExpiredSessions(q: Queryable, now: number): Promise<void> {
  await q.query('DELETE FROM sessions WHERE created_at <= $1 OR last_used_at <= $2', [now - SESSION_ABSOLUTE_MS, now - SESSION_IDLE_MS]);
  await q.query('DELETE FROM sign_in_challenges WHERE expires_at <= $1', [now]);
}

export interface ChallengeRow {
  id: string;
  personId: string;
  nextPath: string | null;
  expiresAt: number;
}

/** A correct password waiting for its code: 10 minutes. */
export async function createChallenge(
  q: Queryable,
  c: { personId: string; nextPath: string | null; now: number },
): Promise<{ id: string; token: string }> {
  const id = newId('chl');
  const token = randomSecret(32);
  await q.query(
    `INSERT INTO sign_in_challenges (id, token_hash, person_id, next_path, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, sha256(token), c.personId, c.nextPath, c.now, c.now + CHALLENGE_MS],
  );
  return { id, token };
}

/** The live challenge of a cookie token, or null (unknown or past its 10 minutes). */
export async function findChallenge(q: Queryable, token: string, now: number): Promise<ChallengeRow | null> {
  const { rows } = await q.query<{ id: string; person_id: string; next_path: string | null; expires_at: string }>('SELECT * FROM sign_in_challenges WHERE token_hash = $1', [sha256(token)]);
  const r = rows[0];
  if (!r || Number(r.expires_at) <= now) return null;
  return { id: r.id, personId: r.person_id, nextPath: r.next_path, expiresAt: Number(r.expires_at) };
}

export async function deleteChallenge(q: Queryable, id: string): Promise<void> {
  await q.query('DELETE FROM sign_in_challenges WHERE id = $1', [id]);
}
