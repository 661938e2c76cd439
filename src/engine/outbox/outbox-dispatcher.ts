// Hands committed outbox rows to sinks (webhook fan-out, A2A push) exactly once, inside one transaction each.
import type { PoolClient } from 'pg';
import type { Db } from '../../db/db.js';
import type { Clock } from '../clock.js';

export interface OutboxRow {
  id: string;
  orderId: string;
  event: string;
  occurredAt: number;
  data: Record<string, unknown>;
}

/**
 * A consumer of order events. `handle` runs inside the transaction that marks the rows
 * dispatched, so what it writes (delivery rows, push queue rows) commits with the mark:
 * a crash redoes both, never one without the other. It must only write to PostgreSQL;
 * network work happens later from what it wrote.
 */
export interface OutboxSink {
  readonly name: string;
  handle(tx: PoolClient, rows: OutboxRow[]): Promise<void>;
}

export interface OutboxDispatcherOptions {
  db: Db;
  clock: Clock;
  batchSize?: number;
  /** Safety poll for rows committed by other nodes or missed wake-ups. */
  pollMs?: number;
  onError?: (err: unknown) => void;
}

export class OutboxDispatcher {
  private readonly sinks: OutboxSink[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(private readonly options: OutboxDispatcherOptions) {}

  addSink(sink: OutboxSink): void {
    this.sinks.push(sink);
  }

  start(): void {
    this.stopped = false;
    this.wake();
    const poll = this.options.pollMs ?? 1_000;
    this.timer = setInterval(() => this.wake(), poll);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Asks for a dispatch round soon (after a commit that wrote outbox rows). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined, (err) => this.options.onError?.(err))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Dispatches until nothing is pending; returns how many rows went out. Also used by the test clock. */
  async drain(): Promise<number> {
    // A round already under way holds its rows locked (SKIP LOCKED would pass over them): let it finish first.
    await this.running;
    let total = 0;
    for (;;) {
      const n = await this.dispatchBatch();
      total += n;
      if (n === 0) return total;
    }
  }

  private async dispatchBatch(): Promise<number> {
    return this.options.db.tx(async (tx) => {
      const { rows } = await tx.query(
        `SELECT id, order_id, event, occurred_at, data FROM outbox WHERE dispatched_at IS NULL
          ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.options.batchSize ?? 200],
      );
      if (rows.length === 0) return 0;
      const batch: OutboxRow[] = rows.map((r) => ({ id: r.id, orderId: r.order_id, event: r.event, occurredAt: Number(r.occurred_at), data: r.data }));
      for (const sink of this.sinks) await sink.handle(tx, batch);
      await tx.query('UPDATE outbox SET dispatched_at = $2 WHERE id = ANY($1::text[])', [batch.map((b) => b.id), this.options.clock.now()]);
      return batch.length;
    });
  }
}
