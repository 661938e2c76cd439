// Order change notices per order id for live views, from the runtime's change events (the engine bridges
// other nodes' changes onto the same events through Redis, so a socket on any node sees every change).
import type { EventEmitter } from 'node:events';
import type { OrderChange } from '../engine/runtime/order-runtime.js';

type Listener = () => void;

export class OrderChangeFeed {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly onChange = (change: OrderChange | undefined) => {
    if (change && typeof change.orderId === 'string') this.notify(change.orderId);
    // A return's change shows on its order's page too (its returns section).
    if (change && typeof change.related === 'string') this.notify(change.related);
  };

  constructor(private readonly changes: EventEmitter) {}

  start(): void {
    this.changes.on('change', this.onChange);
  }

  stop(): void {
    this.changes.off('change', this.onChange);
  }

  /** Calls `listener` after every committed change of `orderId`; returns the unsubscribe function. */
  subscribe(orderId: string, listener: Listener): () => void {
    let set = this.listeners.get(orderId);
    if (!set) this.listeners.set(orderId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(orderId) === set) this.listeners.delete(orderId);
    };
  }

  private notify(orderId: string): void {
    for (const listener of this.listeners.get(orderId) ?? []) listener();
  }
}
