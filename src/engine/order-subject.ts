// The order's business side as the host hands it to the engine: the engine carries it, never reads it.
//
// The engine owns an order's run (flow and version, status, vars, node records, generation,
// snapshot); what the order is about (what it sells, for whom, its amounts) belongs to the host,
// which hands the engine an OrderSubject the way it hands node types and ports:
// `createEngine(host, { nodeTypes, ports, subject })`. The service's is src/orders/order-subject.ts.

/** The order's business fields as the host reads them from the orders row: what steps see of the order beside the run's fields. */
export type OrderFacts = Readonly<Record<string, unknown>>;

/** Where an order event is filed: under another order than its own (`orderId`), with the data as sent. */
export interface FiledEvent {
  /** The order the event belongs to when it is not the one whose run sent it; absent: its own. */
  orderId?: string;
  data: Record<string, unknown>;
}

export interface OrderSubject {
  /** The facts of an orders row as loaded with the lock (every column, as pg returns them). */
  read(row: Readonly<Record<string, unknown>>): OrderFacts;
  /**
   * The orders row's columns (name -> value) that store `changed`, facts a step's port changed in
   * the slice: the slice writes them in its one update of the row. Throws for a fact no step may change.
   */
  columns(changed: OrderFacts): Readonly<Record<string, unknown>>;
  /** The summary of the order an order event carries (`data.order`). */
  summary(orderId: string, facts: OrderFacts): Record<string, unknown>;
  /**
   * Files an order event (its data already `{ order: summary, ...the step's data }`): under its own
   * order, under another one, or not at all (null). Absent: every event under its own order.
   */
  fileEvent?(orderId: string, facts: OrderFacts, event: string, data: Record<string, unknown>): FiledEvent | null;
  /** Another order a change of this one also concerns (its page shows this one), or null. */
  related?(facts: OrderFacts): string | null;
}
