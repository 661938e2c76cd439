// Rows of reference data (workspace settings, products, sellers) kept in memory per reference version, for run slices.

/** The tables whose rows the cache keeps (each has the version trigger of migration 0015). */
export const REFERENCE_TABLES = new Set(['workspace', 'products', 'sellers']);

/** Entries kept per table before the table's map starts over (a larger catalogue simply reads more). */
const MAX_ROWS_PER_TABLE = 20_000;

/** `reference_version` as one statement reads it next to its own work: `epoch:version`. */
export const REFERENCE_VERSION_SQL = `(SELECT epoch || ':' || version FROM reference_version WHERE id = 1)`;

export interface ReferenceVersion {
  epoch: string;
  version: number;
}

/** Parses what REFERENCE_VERSION_SQL answered; null when it answered nothing. */
export function parseReferenceVersion(value: unknown): ReferenceVersion | null {
  if (typeof value !== 'string') return null;
  const cut = value.lastIndexOf(':');
  const version = Number(value.slice(cut + 1));
  return cut > 0 && Number.isSafeInteger(version) ? { epoch: value.slice(0, cut), version } : null;
}

/**
 * What run slices read of the reference tables, by key (SKU, seller id, the workspace row), for
 * one version of them. The version is what PostgreSQL makes of every write to those tables (a
 * statement trigger, migration 0015); a slice reads it in the statement that locks its order
 * (or inserts a new one), so keeping these rows costs no statement.
 *
 * A slice at the newest version seen reads through the cache; a newer version (or another
 * epoch: another database) empties it; an older one (a slice whose lock predates a write's
 * commit) reads the database and keeps nothing. Rows read after the version was taken may
 * already be newer than it: such a slice acts as if it had begun a moment later, as with the
 * transaction's own read cache, and every later slice sees the new version. One per runtime
 * (per database); rows are cloned in and out.
 */
export class ReferenceCache {
  private at: ReferenceVersion = { epoch: '', version: -1 };
  private readonly tables = new Map<string, Map<string, unknown>>();

  /**
   * The rows of `table` for `keys` at version `v`, in the order of `keys` (a key without a row
   * is left out): cached ones, and the missing ones from `load(missing)`, matched by `keyOf`.
   */
  async rows<R>(v: ReferenceVersion, table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]> {
    if (v.epoch === this.at.epoch && v.version < this.at.version) return load([...keys]);
    if (v.epoch !== this.at.epoch || v.version > this.at.version) {
      this.at = { ...v };
      this.tables.clear();
    }
    let known = this.tables.get(table);
    if (!known) {
      known = new Map();
      this.tables.set(table, known);
    }
    const missing = keys.filter((k) => !known.has(k));
    const loaded = new Map<string, R>();
    if (missing.length > 0) {
      for (const row of await load(missing)) loaded.set(keyOf(row), row);
      // Kept only while this version is still the newest (another slice may have moved it on meanwhile).
      if (this.at.epoch === v.epoch && this.at.version === v.version && this.tables.get(table) === known) {
        if (known.size + missing.length > MAX_ROWS_PER_TABLE) known.clear();
        for (const k of missing) known.set(k, loaded.has(k) ? structuredClone(loaded.get(k)) : null);
      }
    }
    return keys.flatMap((k) => {
      if (loaded.has(k)) return [loaded.get(k)!];
      const row = known.get(k);
      return row === null || row === undefined ? [] : [structuredClone(row) as R];
    });
  }
}
