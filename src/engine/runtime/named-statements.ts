// Statements with parameters sent as named (prepared) statements: each pool connection parses them once.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Queryable } from '../../db/db.js';
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
      const name = params ? statementName(text) : null;
      if (!name) return tx.query(text, params);
      return tx.query({ name, text, values: params }).catch((err: unknown) => {
        throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
      });
    },
  };
}
