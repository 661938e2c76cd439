// The transaction client as steps (and a new order's recording) see it: parameterised statements sent as
// named (prepared) statements; for steps, every statement also shown to the slice's read cache.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { isStalePlanError, StalePreparedPlan } from './stale-prepared-plan.js';
import { attachReadCache, type TransactionReadCache } from '../../db/transaction-read-cache.js';

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

/** The statement text of a pg `query()` call: a string, or a config object with `text`. */
function statementText(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { text?: unknown }).text === 'string') return (arg as { text: string }).text;
  return '';
}

/**
 * `tx` with every statement that has parameters (`query(text, values)`) sent as a named statement:
 * each pool connection parses it once instead of on every order, and PostgreSQL can keep a generic
 * plan. A named `SELECT *` (or `RETURNING *`) can go stale when another node's migration adds a
 * column; that error becomes StalePreparedPlan, which the runtime answers by retrying the command
 * on a fresh connection. `onQuery` sees each statement's text first. Every other member is the
 * client's own (methods bound to it).
 */
export function namedStatementClient(tx: PoolClient, onQuery?: (text: string) => void): PoolClient {
  const query = (...args: unknown[]) => {
    const text = statementText(args[0]);
    onQuery?.(text);
    if (typeof args[0] === 'string' && Array.isArray(args[1]) && args.length === 2) {
      const name = statementName(text);
      if (name)
        return tx.query({ name, text, values: args[1] }).catch((err: unknown) => {
          throw isStalePlanError(err) ? new StalePreparedPlan(err) : err;
        });
    }
    // eslint-disable-next-line @typescript-eslint/unbound-method -- applied with tx as `this`.
    return Reflect.apply(tx.query, tx, args) as unknown;
  };
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Wraps `tx` for steps: statements with parameters go as named statements (`namedStatementClient`).
 * Steps never write the orders row (they return new totals in StepResult.totals, and the slice
 * writes them with the row). Every statement is shown to the slice's read cache first, so a write
 * drops what it read of that table. `onStatement` counts each one (metrics).
 */
export function stepClient(tx: PoolClient, cache: TransactionReadCache, onStatement?: () => void): PoolClient {
  const client = namedStatementClient(tx, (text) => {
    onStatement?.();
    cache.sawStatement(text);
  });
  attachReadCache(client, cache);
  return client;
}
