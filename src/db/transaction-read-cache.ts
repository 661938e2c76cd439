// A transaction's cache of reads it repeats (a run slice's steps: the order's lines, products, workspace settings).
import type { Queryable, DbRow } from './db.js';
import { REFERENCE_TABLES, type ReferenceCache, type ReferenceVersion } from './reference-cache.js';

/** Table names a statement writes: INSERT INTO t, UPDATE t, DELETE FROM t (also inside WITH). */
const WRITE_TARGET = /\b(?:insert\s+into|update|delete\s+from)\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
const READ_ONLY = /^\s*select\b/i;
/**
 * A SELECT naming a write word (FOR UPDATE, a write in a subquery) is inspected like a write;
 * a plain SELECT is taken as read-only (a function writing behind one is not seen: steps call none).
 */
const WRITE_WORD = /\b(?:insert|update|delete|merge|truncate)\b/i;

/**
 * The cache of one run slice. Entries are keyed by statement and parameters and tagged with
 * the table they read; any statement of the slice that writes that table drops them (any
 * statement whose targets it cannot tell drops everything), and so does a rolled-back step.
 * Rows are cloned in and out, so a step that changes what it got cannot change what the next
 * step reads. Inside the slice's transaction this is what a repeated read would see, except
 * for rows another transaction committed meanwhile: the slice then acts on the earlier read,
 * as if it had run a moment sooner.
 */
/** A read whose rows the slice already has (written in its own transaction): seeded so the first step need not read them. */
export interface CachedRead {
  table: string;
  text: string;
  values: unknown[];
  rows: DbRow[];
}

export class TransactionReadCache {
  private readonly entries = new Map<string, { table: string; rows: DbRow[] }>();

  /**
   * The runtime's reference cache and the reference version this slice read with its lock
   * (reference-cache.ts), or null: then reference reads go to the database. Dropped for the rest
   * of the slice once a statement of the slice writes a reference table (or one it cannot read).
   */
  reference: { cache: ReferenceCache; version: ReferenceVersion } | null = null;

  /** The table the next statement writes through (its cached rows are patched after it, not dropped). */
  private writeThroughTable: string | null = null;

  /** Called by the step client before every statement it sends. */
  sawStatement(text: string): void {
    const keep = this.writeThroughTable;
    this.writeThroughTable = null;
    if (READ_ONLY.test(text) && !WRITE_WORD.test(text)) return;
    if (!this.reference && this.entries.size === 0) return;
    const tables = new Set([...text.matchAll(WRITE_TARGET)].map((m) => m[1].toLowerCase()));
    // A locking SELECT (FOR UPDATE) writes nothing; any other statement whose targets are unknown might.
    const unknownWrite = tables.size === 0 && !READ_ONLY.test(text);
    if (this.reference && (unknownWrite || [...tables].some((t) => REFERENCE_TABLES.has(t)))) this.reference = null;
    if (this.entries.size === 0) return;
    // A SELECT naming no write target (FOR UPDATE; a write can only hide in a WITH, which is not a SELECT) changes nothing.
    if (tables.size === 0 && READ_ONLY.test(text)) return;
    if (tables.size === 0) return this.clear();
    for (const [key, entry] of this.entries) if (tables.has(entry.table) && entry.table !== keep) this.entries.delete(key);
  }

  /** Announces that the next statement writes `table` in a way the caller then applies to the cached rows (patchRows). */
  expectWriteThrough(table: string): void {
    this.writeThroughTable = table;
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

/** The cache behind each slice's step client (steps see the client, repositories look the cache up by it). */
const caches = new WeakMap<object, TransactionReadCache>();

export function attachReadCache(client: object, cache: TransactionReadCache): void {
  caches.set(client, cache);
}

/** Enters rows a step just read another way (a locking read of the same rows) as `read.text` would read them; outside a slice nothing. */
export function seedRead(q: Queryable, read: CachedRead): void {
  caches.get(q)?.seed(read);
}

/**
 * Rows of `SELECT …` reading `table`: from the slice's cache when `q` is a step's client,
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
  const cache = caches.get(q);
  cache?.expectWriteThrough(table);
  await q.query(text, values);
  cache?.patchRows(table, patch);
}

/**
 * Rows of reference table `table` for `keys` (products by SKU, sellers by id, the workspace row):
 * through the runtime's reference cache when `q` is a step's client whose slice read the
 * reference version, else straight from `load`.
 */
export async function referenceRows<R>(q: Queryable, table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]> {
  const reference = caches.get(q)?.reference;
  if (!reference) return load([...keys]);
  return reference.cache.rows(reference.version, table, keys, load, keyOf);
}
