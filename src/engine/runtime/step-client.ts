// The transaction client as steps see it: the slice's own client, watched for writes to the orders row,
// with steps' plain writes sent as named (prepared) statements.
import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';

/** UPDATE of the orders table (not order_lines, order_nodes …), in any spelling steps use. */
const WRITES_ORDERS = /\bupdate\s+(?:"?public"?\.)?"?orders"?\s/i;

/** INSERT / UPDATE / DELETE returning no rows: a prepared plan of it can never change result type. */
const PLAIN_WRITE = /^\s*(?:insert|update|delete)\b/i;
const RETURNING = /\breturning\b/i;

/** Statement names by text; steps' SQL is static, so this stays small (the cap is a safety net). */
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
 * Wraps `tx` for steps. `query` first calls `onOrdersWrite` when the statement updates the
 * orders table (so the slice re-reads the row only then), and sends a plain write with
 * parameters (`query(text, values)`, no RETURNING) as a named statement: each pool connection
 * parses and plans it once instead of on every order. Every other member is the client's own
 * (methods bound to it).
 */
export function stepClient(tx: PoolClient, onOrdersWrite: () => void): PoolClient {
  const query = (...args: unknown[]) => {
    const text = statementText(args[0]);
    if (WRITES_ORDERS.test(text)) onOrdersWrite();
    if (typeof args[0] === 'string' && Array.isArray(args[1]) && args.length === 2 && PLAIN_WRITE.test(text) && !RETURNING.test(text)) {
      const name = statementName(text);
      if (name) return tx.query({ name, text, values: args[1] });
    }
    return Reflect.apply(tx.query, tx, args);
  };
  return new Proxy(tx, {
    get(target, prop) {
      if (prop === 'query') return query;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
