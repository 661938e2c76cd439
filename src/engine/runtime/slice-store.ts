// The run store a slice lends its steps' ports: its transaction as a reader and a writer (a step's first write opens its savepoint), the read cache, the reference data, the order's facts.
import type { PoolClient } from 'pg';
import type { Queryable } from '../../db/db.js';
import { attachReadCache, TransactionReadCache } from '../../db/transaction-read-cache.js';
import type { SliceOrder, StepStore } from '../step-store.js';
import { namedStatements, queryAfter } from './named-statements.js';
import { StalePreparedPlan } from './stale-prepared-plan.js';

/** The savepoint a step's first write opens (step-invoker.ts rolls back to it when the step fails). */
export const STEP_SAVEPOINT = 'step';

/** What the store saw of the step it watched (`endStep`). */
export interface WatchedStep {
  /** Whether any first write opens the step's savepoint (not in a step that decides before writing: only a checked one). */
  savepoint: boolean;
  /** The step sent a write. */
  wrote: boolean;
  /** Its savepoint was opened before a write: a failure rolls back to it. */
  saved: boolean;
  /** A read of the step failed (the transaction is aborted): the store's failure, not the step's. */
  readFailure: Error | undefined;
  /** A write of the step failed (the transaction is aborted back to the step's savepoint): the step's failure. */
  writeFailure: Error | undefined;
}

/** A watched step that has sent nothing yet. */
function unwritten(savepoint: boolean): WatchedStep {
  return { savepoint, wrote: false, saved: false, readFailure: undefined, writeFailure: undefined };
}

/**
 * One slice's StepStore. Ports read through `reader` and write through `writer` (or `checkedWriter`).
 * While the slice watches a step body (`watchStep`), the body's first write carries `SAVEPOINT step`
 * in its round trip (in a step that decides before writing, only a checked write does), so a step
 * that fails after writing is rolled back to before it and a step that only reads pays no savepoint.
 * Outside a watched body (undo and abandon bodies, which run in a savepoint of their own)
 * statements go as they are.
 */
export class SliceStore implements StepStore {
  readonly reader: Queryable;
  readonly writer: Queryable;
  readonly checkedWriter: Queryable;
  /** Reads the ports repeat within the slice, kept right by the repositories that write (transaction-read-cache.ts). */
  readonly cache = new TransactionReadCache();
  /** The step body being watched, or null. */
  private watched: WatchedStep | null = null;

  constructor(
    tx: PoolClient,
    onStatement: () => void,
    readonly order: SliceOrder,
  ) {
    const send = namedStatements(tx, onStatement);
    this.reader = { query: (text, params) => this.noted('readFailure', send.query(text, params)) };
    const writer = (checked: boolean): Queryable => ({
      query: (text, params) => {
        const step = this.watched;
        if (!step) return send.query(text, params);
        step.wrote = true;
        if (step.saved || !(checked || step.savepoint)) return this.noted('writeFailure', send.query(text, params));
        step.saved = true;
        return this.noted('writeFailure', queryAfter(tx, [`SAVEPOINT ${STEP_SAVEPOINT}`], text, params, onStatement));
      },
    });
    this.writer = writer(false);
    this.checkedWriter = writer(true);
    attachReadCache(this.reader, this.cache);
    attachReadCache(this.writer, this.cache);
    attachReadCache(this.checkedWriter, this.cache);
  }

  /** Notes a failed statement of the watched body; a stale prepared plan is the connection's (the runtime takes a fresh one), never the step's. */
  private noted<T>(kind: 'readFailure' | 'writeFailure', sent: Promise<T>): Promise<T> {
    return sent.catch((err: unknown) => {
      if (this.watched && !(err instanceof StalePreparedPlan)) this.watched[kind] ??= err instanceof Error ? err : new Error(String(err));
      throw err;
    });
  }

  reference<R>(table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]> {
    const reference = this.cache.reference;
    if (!reference) return load([...keys]);
    return reference.cache.rows(reference.version, table, keys, load, keyOf);
  }

  /** Starts watching a step body: whether its first write opens its savepoint; its writes and failed statements are noted. */
  watchStep(savepoint: boolean): void {
    this.watched = unwritten(savepoint);
  }

  /** Stops watching the body: what it did to the store. */
  endStep(): WatchedStep {
    const step = this.watched ?? unwritten(false);
    this.watched = null;
    return step;
  }
}
