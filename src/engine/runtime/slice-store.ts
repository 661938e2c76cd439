// The run store a slice lends its steps' ports: its transaction as a reader and a writer, the read cache, the reference data, the order's facts.
import type { PoolClient } from 'pg';
import type { Queryable } from '../../db/db.js';
import { attachReadCache, TransactionReadCache } from '../../db/transaction-read-cache.js';
import type { SliceOrder, StepStore } from '../step-store.js';
import { namedStatements } from './named-statements.js';

/**
 * One slice's StepStore. Ports read through `reader` and write through `writer`; the slice asks
 * `stepTouched` after a step body threw: a step that wrote nothing needs nothing rolled back, so
 * its failure is recorded at once; one that wrote is rolled back to before it.
 */
export class SliceStore implements StepStore {
  readonly reader: Queryable;
  readonly writer: Queryable;
  /** Reads the ports repeat within the slice, kept right by the repositories that write (transaction-read-cache.ts). */
  readonly cache = new TransactionReadCache();
  /** Whether the watched body wrote, or sent a statement that failed (the transaction is then aborted). */
  private touched = false;

  constructor(
    tx: PoolClient,
    onStatement: () => void,
    readonly order: SliceOrder,
  ) {
    const send = namedStatements(tx, onStatement);
    const watched = (write: boolean): Queryable => ({
      query: async (text, params) => {
        if (write) this.touched = true;
        try {
          return await send.query(text, params);
        } catch (err) {
          this.touched = true;
          throw err;
        }
      },
    });
    this.reader = watched(false);
    this.writer = watched(true);
    attachReadCache(this.reader, this.cache);
    attachReadCache(this.writer, this.cache);
  }

  reference<R>(table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]> {
    const reference = this.cache.reference;
    if (!reference) return load([...keys]);
    return reference.cache.rows(reference.version, table, keys, load, keyOf);
  }

  /** Starts watching a step body: whether its ports write. */
  watchStep(): void {
    this.touched = false;
  }

  /** Whether the body watched since watchStep() wrote through its ports, or had a statement fail: then only a rollback undoes it. */
  get stepTouched(): boolean {
    return this.touched;
  }
}
