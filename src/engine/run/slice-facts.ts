// The order's facts one slice (or one simulated command) holds: what ports changed, to write with the orders row.
import type { OrderFacts } from '../order-subject.js';
import type { SliceOrder } from '../step-store.js';

/** A SliceOrder that remembers which facts changed since it opened, and can go back to a mark (a body that threw). */
export class SliceFacts implements SliceOrder {
  private current: OrderFacts;
  private readonly changedKeys = new Set<string>();

  constructor(
    readonly orderId: string,
    facts: OrderFacts,
  ) {
    this.current = facts;
  }

  get facts(): OrderFacts {
    return this.current;
  }

  change(orderId: string, patch: OrderFacts): void {
    if (orderId !== this.orderId) throw new Error(`a step of order ${this.orderId} tried to change order ${orderId}`);
    this.current = { ...this.current, ...patch };
    for (const key of Object.keys(patch)) this.changedKeys.add(key);
  }

  /** Where the facts stand now, to go back to with `restore`. */
  mark(): { facts: OrderFacts; changed: string[] } {
    return { facts: this.current, changed: [...this.changedKeys] };
  }

  restore(mark: { facts: OrderFacts; changed: string[] }): void {
    this.current = mark.facts;
    this.changedKeys.clear();
    for (const key of mark.changed) this.changedKeys.add(key);
  }

  /** The facts changed since the slice opened, with their values now (empty: the slice writes none). */
  changed(): OrderFacts {
    return Object.fromEntries([...this.changedKeys].map((key) => [key, this.current[key]]));
  }
}
