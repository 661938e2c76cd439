// Order change notices for live views: the runtime's in-process notices, fanned out across nodes via Redis pub/sub.
import { randomUUID } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Logger } from '../logging/logger.js';
import type { OrderChange } from '../engine/runtime/order-runtime.js';

type Listener = () => void;

/**
 * Listeners per order id. A commit on this node notifies local listeners at once and publishes
 * `{ node, orderId }` on `<prefix>order-changes`; other nodes' messages notify their listeners
 * here (a node ignores its own). Without Redis it is in-process only.
 */
export class OrderChangeFeed {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly nodeId = randomUUID();
  private subscriber: Redis | null = null;
  private readonly onLocal = (change: OrderChange) => {
    this.notify(change.orderId);
    if (this.redis)
      this.redis.publish(this.channel, JSON.stringify({ node: this.nodeId, orderId: change.orderId })).catch((err) =>
        this.logger.warn({ err: (err as Error).message }, 'order change publish failed'),
      );
  };

  constructor(
    private readonly changes: EventEmitter,
    private readonly redis: Redis | null,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.changes.on('change', this.onLocal);
    if (!this.redis) return;
    const sub = this.redis.duplicate();
    sub.on('error', (err) => this.logger.warn({ err: err.message }, 'order change subscriber error'));
    sub.on('message', (_channel: string, message: string) => {
      try {
        const { node, orderId } = JSON.parse(message) as { node?: string; orderId?: string };
        if (node !== this.nodeId && typeof orderId === 'string') this.notify(orderId);
      } catch {
        /* not ours: ignore */
      }
    });
    await sub.subscribe(this.channel);
    this.subscriber = sub;
  }

  async stop(): Promise<void> {
    this.changes.off('change', this.onLocal);
    const sub = this.subscriber;
    this.subscriber = null;
    if (sub) await sub.quit().catch(() => sub.disconnect());
  }

  /** Calls `listener` after every committed change of `orderId`; returns the unsubscribe function. */
  subscribe(orderId: string, listener: Listener): () => void {
    let set = this.listeners.get(orderId);
    if (!set) this.listeners.set(orderId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0 && this.listeners.get(orderId) === set) this.listeners.delete(orderId);
    };
  }

  private notify(orderId: string): void {
    for (const listener of this.listeners.get(orderId) ?? []) listener();
  }
}
