// A run slice's cache of reads its steps' ports repeat (the order's lines, reservations, seller orders), kept right by the writers.
import type { Queryable, DbRow } from './db.js';
import type { ReferenceCache, ReferenceVersion } from './reference-cache.js';

/** A read whose rows the slice already has (written in its own transaction): seeded so the first step need not read them. */
export interface CachedRead {
  table: string;
  text: string;
  values: unknown[];
  rows: DbRow[];
}

/**
 * The cache of one run slice. Entries are keyed by statement and parameters and tagged with the
 * table they read. Nothing looks at SQL: every repository function that writes a cached table
 * says so (`forgetRows`, or `writeThrough` / `seedRead` when it knows the rows after its write),
 * and the slice empties the cache when a step's writes are rolled back. Rows are cloned in and
 * out, so a step that changes what it got cannot change what the next step reads. Inside the
 * slice's transaction this is what a repeated read would see, except for rows another
 * transaction committed meanwhile: the slice then acts on the earlier read, as if it had run a
 * moment sooner.
 */
export class TransactionReadCache {
  private readonly entries = new Map<string, { table: string; rows: DbRow[] }>();

  /**
   * The runtime's reference cache and the reference version this slice read with its lock
   * (reference-cache.ts), or null: then reference reads go to the database. Steps never write
   * reference tables (workspace, products, sellers): their ports have no such writes.
   */
  reference: { cache: ReferenceCache; version: ReferenceVersion } | null = null;

  /** Drops every cached read of `table` (its writer changed it). */
  forget(table: string): void {
    for (const [key, entry] of this.entries) if (entry.table === table) this.entries.delete(key);
  }

  /** Applies a write the slice just made to every cached row of `table` (in place: entries hold their own copies). */
  patchRows(table: string, patch: (row: DbRow) => void): void {
    for (const entry of this.entries.values()) if (entry.table === table) for (const row of entry.rows) patch(row);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Enters rows as if `read.text` had just been read with `read.values` (they must be exactly what that read returns). */
  seed(read: CachedRead): void {
    this.entries.set(`${read.text}\u0000${JSON.stringify(read.values)}`, { table: read.table, rows: structuredClone(read.rows) });
  }

  async read<R extends DbRow>(table: string, text: string, values: unknown[], load: () => Promise<R[]>): Promise<R[]> {
    const key = `${text}\u0000${JSON.stringify(values)}`;
    const hit = this.entries.get(key);
    if (hit) return structuredClone(hit.rows) as R[];
    const rows = await load();
    this.entries.set(key, { table, rows: structuredClone(rows) });
    return rows;
  }
}

/** The cache behind each slice's store clients (its ports use them; repositories look the cache up by client). */
const caches = new WeakMap<object, TransactionReadCache>();

export function attachReadCache(client: object, cache: TransactionReadCache): void {
  caches.set(client, cache);
}

/** Enters rows a repository just read or wrote another way (a locking read, a write's RETURNING) as `read.text` would read them; outside a slice nothing. */
export function seedRead(q: Queryable, read: CachedRead): void {
  caches.get(q)?.seed(read);
}

/** Says that the statement just sent on `q` changed `table`: the slice's cached reads of it are dropped; outside a slice nothing. */
export function forgetRows(q: Queryable, table: string): void {
  caches.get(q)?.forget(table);
}

/**
 * Rows of `SELECT …` reading `table`: from the slice's cache when `q` is a slice store's client,
 * else straight from the database (API reads, jobs and tests always see the latest rows).
 */
export async function cachedRows<R extends DbRow = DbRow>(q: Queryable, table: string, text: string, values: unknown[]): Promise<R[]> {
  const cache = caches.get(q);
  if (!cache) return (await q.query<R>(text, values)).rows;
  return cache.read(table, text, values, async () => (await q.query<R>(text, values)).rows);
}

/**
 * Sends a write on `table` whose effect `patch` applies to each cached row of that table, so the
 * slice's later reads of it are still served from the cache (a step that fills a column of the
 * lines it just read need not read them again). `patch` must change a row exactly as the write
 * changes it in the database, and leave rows the write does not touch alone. Outside a slice
 * it is a plain query.
 */
export async function writeThrough(q: Queryable, table: string, text: string, values: unknown[], patch: (row: DbRow) => void): Promise<void> {
  await q.query(text, values);
  caches.get(q)?.patchRows(table, patch);
}

/**
 * Rows of reference table `table` for `keys` (products by SKU, sellers by id, the workspace row):
 * through the runtime's reference cache when `q` is a slice store's client whose slice read the
 * reference version, else straight from `load`.
 */
export async function referenceRows<R>(q: Queryable, table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]> {
  const reference = caches.get(q)?.reference;
  if (!reference) return load([...keys]);
  return reference.cache.rows(reference.version, table, keys, load, keyOf);
}
