// What a step's ports run on (the slice's transaction, reads and writes told apart) and the ports a step receives.
import type { Queryable } from '../db/db.js';
import type { OrderFacts } from './order-subject.js';

/**
 * The run store as a slice lends it to the host's port implementations, never to a step: the
 * slice's transaction split into a reader and a writer, and the reference data at the version
 * the slice read with its lock. A step never sees SQL; its ports use this.
 */
export interface StepStore {
  /** Reads in the slice's transaction (parameterised statements are prepared once per connection). */
  readonly reader: Queryable;
  /**
   * Writes in the slice's transaction. A step's first write opens its savepoint (one statement in the
   * same round trip): a step that fails after writing is rolled back to it, one that fails before
   * writing has nothing to roll back. In a step that decides before writing, no savepoint.
   */
  readonly writer: Queryable;
  /**
   * A write the port may still throw after (a reservation that holds only what stock allows, when
   * another order took the units meanwhile): it opens the step's savepoint even in a step that decides
   * before writing, so the failure that follows is rolled back to it and recorded as the step's.
   */
  readonly checkedWriter: Queryable;
  /**
   * Rows of reference table `table` (workspace, products, sellers) for `keys`, through the
   * runtime's reference cache at the slice's reference version; straight from `load` without one.
   */
  reference<R>(table: string, keys: readonly string[], load: (missing: string[]) => Promise<R[]>, keyOf: (row: R) => string): Promise<R[]>;
  /** The slice's order facts (the host's business fields): read, and changed without a statement of their own. */
  readonly order: SliceOrder;
}

/**
 * The order's facts as one slice holds them (read with the lock by the host's OrderSubject). A port
 * changes them here (pricing re-totals the order); the slice writes the changed ones in its one
 * update of the orders row, and the next bodies of the slice see them in `ctx.order`. A body that
 * throws leaves them as they were before it.
 */
export interface SliceOrder {
  readonly orderId: string;
  readonly facts: OrderFacts;
  /** Replaces some facts of order `orderId` (only the slice's own order can change). */
  change(orderId: string, patch: OrderFacts): void;
}

/**
 * The ports a step receives (`ctx.ports`): empty here, each plug-in adds its own by declaration
 * merging (`declare module '../engine/step-store.js' { interface StepPorts { stock: StockPort } }`),
 * and the host's factory builds them over the slice's StepStore.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging.
export interface StepPorts {}

/** Builds a slice's ports over its store (once per slice, when its first step runs). */
export type StepPortsFactory = (store: StepStore) => StepPorts;
