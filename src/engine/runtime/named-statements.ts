// Statements with parameters sent as named (prepared) statements: each pool connection parses them once, and a prepared one can ride with others in one round trip.
import { createHash } from 'node:crypto';
import type { PoolClient, QueryResult } from 'pg';
import type { Queryable } from '../../db/db.js';
import { executeText } from './sql-literal.js';
import { isStalePlanError, StalePreparedPlan } from './stale-prepared-plan.js';

/** Statement names by text; the SQL sent this way is static, so this stays small (the cap is a safety net). */
const names = new Map<string, string>();
const MAX_NAMES = 500;

function statementName(text: string): string | null {
  let name = names.get(text);
  if (name) return name;
  if (names.size >= MAX_NAMES) return null;
  name = `oo_step_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
  names.set(text, name);
  return name;
}

/** A statement with a name (prepared once per connection) and its parameters. */
export interface NamedStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** The named statements each connection has run (so it holds them prepared); a discarded connection takes its set with it. */
const preparedOn = new WeakMap<PoolClient, Set<string>>();

function markPrepared(tx: PoolClient, name: string): void {
  let prepared = preparedOn.get(tx);
  if (!prepared) preparedOn.set(tx, (prepared = new Set()));
  prepared.add(name);
}

/** Runs a named statement on `tx` the usual way (Parse once, Bind, Execute); a stale plan throws StalePreparedPlan. */
async function runNamed<R extends object>(tx: PoolClient, statement: NamedStatement): Promise<QueryResult<R>> {
  try {
    const result = await tx.query<R>(statement);
    markPrepared(tx, statement.name);
    return result;
  } catch (err) {
    throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
  }
}

/**
 * A Queryable over `tx` that sends every statement with parameters as a named statement, so
 * PostgreSQL can keep a generic plan. A named `SELECT *` (or `RETURNING *`) can go stale when
 * another node's migration adds a column; that error becomes StalePreparedPlan, which the
 * runtime answers by retrying the command on a fresh connection. `onStatement` counts each one.
 */
export function namedStatements(tx: PoolClient, onStatement?: () => void): Queryable {
  return {
    query(text, params) {
      onStatement?.();
      const named = asNamed(text, params);
      return named ? runNamed(tx, named) : tx.query(text, params);
    },
  };
}

/**
 * Sends plain statements `before` (BEGIN, a SAVEPOINT) and then a statement with parameters as a named one, joined
 * in one round trip when `sendJoined` can (the statement prepared on the connection, or text without parameters);
 * counts each with `onStatement`. Answers the statement's result; a failing `before` means the statement did not run.
 */
export async function queryAfter<R extends object>(
  tx: PoolClient,
  before: readonly string[],
  text: string,
  params: unknown[] | undefined,
  onStatement?: () => void,
): Promise<QueryResult<R>> {
  for (let i = 0; i <= before.length; i += 1) onStatement?.();
  const named = asNamed(text, params);
  if (named || !params) return sendJoined<R>(tx, { before, statement: named ?? text });
  // Parameters but no name (past the cap): the plain statements on their own, then the statement bound as usual.
  await tx.query(before.join('; '));
  return tx.query<R>(text, params);
}

/** A statement with parameters as a named one; null without parameters (or past the cap on names). */
function asNamed(text: string, params?: unknown[]): NamedStatement | null {
  const name = params ? statementName(text) : null;
  return name ? { name, text, values: params ?? [] } : null;
}

/**
 * Sends `before`, `statement` and `after` (plain statements around one statement) in one simple-protocol message
 * when the connection already holds `statement` prepared (as `EXECUTE name(literals)`) or it is text without
 * parameters; else
 * `before` in one round trip, `statement` the usual way, `after` in another. Answers `statement`'s result.
 * One round trip instead of two or three: both processes pay a socket write and a wake-up per round trip. In one
 * message a failing statement aborts the transaction and the statements after it do not run.
 */
export async function sendJoined<R extends object>(
  tx: PoolClient,
  parts: { before?: readonly string[]; statement: NamedStatement | string; after?: readonly string[] },
): Promise<QueryResult<R>> {
  const before = parts.before ?? [];
  const after = parts.after ?? [];
  const { statement } = parts;
  const text = typeof statement === 'string' ? statement : preparedOn.get(tx)?.has(statement.name) ? executeText(statement.name, statement.values) : null;
  if (text !== null) {
    if (!before.length && !after.length) return tx.query<R>(text);
    let results: QueryResult<R>[];
    try {
      // pg types a multi-statement query as one result; it answers one result per statement.
      results = (await tx.query([...before, text, ...after].join('; '))) as unknown as QueryResult<R>[];
    } catch (err) {
      throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
    }
    return results[before.length];
  }
  if (before.length) await tx.query(before.join('; '));
  const result = await runNamed<R>(tx, statement as NamedStatement);
  if (after.length) await tx.query(after.join('; '));
  return result;
}

/**
 * As `namedStatements`, for a transaction not yet begun: the first statement carries `BEGIN` in its round trip
 * (`sendJoined`). `begin()` opens it when no statement was sent yet (call it before COMMIT).
 */
export function namedStatementsBeginning(tx: PoolClient): { q: Queryable; begin(): Promise<void> } {
  const later = namedStatements(tx);
  let begun = false;
  const q: Queryable = {
    query(text, params) {
      if (begun) return later.query(text, params);
      begun = true;
      return queryAfter(tx, ['BEGIN'], text, params);
    },
  };
  return {
    q,
    async begin() {
      if (begun) return;
      begun = true;
      await tx.query('BEGIN');
    },
  };
}
