// People rows in PostgreSQL: lookups, inserts and field updates (rules live in the services).
import type { Queryable } from '../db/db.js';
import type { Role } from './roles.js';

export interface Person {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  enabled: boolean;
  passwordHash: string | null;
  passwordTemporary: boolean;
  /** Sealed TOTP secret; present while two-factor is on. */
  totpSecret: string | null;
  totpEnabledAt: number | null;
  totpPendingSecret: string | null;
  createdAt: number;
  createdBy: string | null;
  updatedAt: number;
}

/** A person as the API and pages show them: never a hash or a secret. */
export interface PersonView {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  enabled: boolean;
  temporaryPassword: boolean;
  twoFactor: { enabled: boolean; enabledAt: number | null };
  createdAt: number;
  updatedAt: number;
}

const COLUMNS = `id, email, name, role, enabled, password_hash, password_temporary, totp_secret, totp_enabled_at,
  totp_pending_secret, created_at, created_by, updated_at`;

/** A `people` row (COLUMNS) as pg returns it (bigint columns as text). */
interface PersonDbRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  enabled: boolean;
  password_hash: string | null;
  password_temporary: boolean;
  totp_secret: string | null;
  totp_enabled_at: string | null;
  totp_pending_secret: string | null;
  created_at: string;
  created_by: string | null;
  updated_at: string;
}

function toPerson(r: PersonDbRow): Person {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    role: r.role,
    enabled: r.enabled,
    passwordHash: r.password_hash,
    passwordTemporary: r.password_temporary,
    totpSecret: r.totp_secret,
    totpEnabledAt: r.totp_enabled_at === null ? null : Number(r.totp_enabled_at),
    totpPendingSecret: r.totp_pending_secret,
    createdAt: Number(r.created_at),
    createdBy: r.created_by,
    updatedAt: Number(r.updated_at),
  };
}

export function personView(p: Person): PersonView {
  return {
    id: p.id,
    email: p.email,
    name: p.name,
    role: p.role,
    enabled: p.enabled,
    temporaryPassword: p.passwordTemporary,
    twoFactor: { enabled: p.totpEnabledAt !== null, enabledAt: p.totpEnabledAt },
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

export async function findPersonById(q: Queryable, id: string): Promise<Person | null> {
  const { rows } = await q.query<PersonDbRow>(`SELECT ${COLUMNS} FROM people WHERE id = $1`, [id]);
  return rows[0] ? toPerson(rows[0]) : null;
}

/** Locks the row for the rest of the transaction (role and enabled changes check the other operators). */
export async function lockPerson(q: Queryable, id: string): Promise<Person | null> {
  const { rows } = await q.query<PersonDbRow>(`SELECT ${COLUMNS} FROM people WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0] ? toPerson(rows[0]) : null;
}

export async function findPersonByEmail(q: Queryable, email: string): Promise<Person | null> {
  const { rows } = await q.query<PersonDbRow>(`SELECT ${COLUMNS} FROM people WHERE lower(email) = lower($1)`, [email.trim()]);
  return rows[0] ? toPerson(rows[0]) : null;
}

export async function listPeople(q: Queryable): Promise<Person[]> {
  const { rows } = await q.query<PersonDbRow>(`SELECT ${COLUMNS} FROM people ORDER BY lower(email)`);
  return rows.map(toPerson);
}

export interface NewPerson {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  passwordHash: string;
  passwordTemporary: boolean;
  createdBy: string | null;
  now: number;
}

export async function insertPerson(q: Queryable, p: NewPerson): Promise<Person> {
  const { rows } = await q.query<PersonDbRow>(
    `INSERT INTO people (id, email, name, role, enabled, password_hash, password_temporary, created_at, created_by, updated_at)
     VALUES ($1, $2, $3, $4, true, $5, $6, $7, $8, $7) RETURNING ${COLUMNS}`,
    [p.id, p.email.trim(), p.name, p.role, p.passwordHash, p.passwordTemporary, p.now, p.createdBy],
  );
  return toPerson(rows[0]);
}

type Updatable = Pick<Person, 'role' | 'enabled' | 'passwordHash' | 'passwordTemporary' | 'totpSecret' | 'totpEnabledAt' | 'totpPendingSecret'>;
const COLUMN_OF: Record<keyof Updatable, string> = {
  role: 'role',
  enabled: 'enabled',
  passwordHash: 'password_hash',
  passwordTemporary: 'password_temporary',
  totpSecret: 'totp_secret',
  totpEnabledAt: 'totp_enabled_at',
  totpPendingSecret: 'totp_pending_secret',
};

/** Sets the given fields and `updated_at`; returns the updated person. */
export async function updatePerson(q: Queryable, id: string, fields: Partial<Updatable>, now: number): Promise<Person> {
  const sets: string[] = [];
  const params: unknown[] = [id, now];
  for (const [k, v] of Object.entries(fields) as [keyof Updatable, unknown][]) {
    params.push(v);
    sets.push(`${COLUMN_OF[k]} = $${params.length}`);
  }
  const { rows } = await q.query<PersonDbRow>(
    `UPDATE people SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`,
    params,
  );
  return toPerson(rows[0]);
}

/** Enabled operators other than `exceptId` (the last-active-operator rule). */
export async function countOtherActiveOperators(q: Queryable, exceptId: string): Promise<number> {
  const { rows } = await q.query<{ n: string }>(
    "SELECT count(*) AS n FROM people WHERE role = 'operator' AND enabled AND id <> $1",
    [exceptId],
  );
  return Number(rows[0].n);
}
