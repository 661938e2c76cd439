// Watches the statements a step sends for writes to the orders row, so the slice re-reads it only then.
import type { PoolClient } from 'pg';

/** UPDATE of the orders table (not order_lines, order_nodes …), in any spelling steps use. */
const WRITES_ORDERS = /\bupdate\s+(?:"?public"?\.)?"?orders"?\s/i;

/** The statement text of a pg `query()` call: a string, or a config object with `text`. */
function statementText(arg: unknown): string {
  if (typeof arg === 'string') return arg;
  if (arg && typeof arg === 'object' && typeof (arg as { text?: unknown }).text === 'string') return (arg as { text: string }).text;
  return '';
}

/**
 * The transaction client as steps see it: the same client, except that `query` first calls
 * `onOrdersWrite` when the statement updates the orders table. Every other member is the
 * client's own (methods bound to it).
 */
export function watchOrdersWrites(tx: PoolClient, onOrdersWrite: () => void): PoolClient {
  const query = (...args: unknown[]) => {
    if (WRITES_ORDERS.test(statementText(args[0]))) onOrdersWrite();
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
