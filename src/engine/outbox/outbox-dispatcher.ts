// Hands committed outbox rows to sinks (webhook fan-out, A2A push) exactly once, inside one transaction each.
import type { PoolClient } from 'pg';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import { CoalescedRounds } from '../../lib/coalesced-rounds.js';

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
  /**
   * A scalar SQL expression without parameters (e.g. the webhook subscriptions as JSON) read by the
   * statement that claims the batch, in the same transaction: its value comes to `handle` as
   * `alongside`, one round trip fewer per batch than reading it there.
   */
  readonly alongside?: string;
  handle(tx: PoolClient, rows: OutboxRow[], alongside?: unknown): Promise<void>;
}

export interface OutboxDispatcherOptions {
  db: Db;
  clock: Clock;
  batchSize?: number;
  /** Safety poll for rows committed by other nodes or missed wake-ups. */
  pollMs?: number;
  /**
   * How long a wake-up waits before its round, so the events of commits made meanwhile go out
   * in the same dispatch transaction (under load one round carries many orders' events
   * instead of one transaction per commit). The test clock's drain() does not wait.
   */
  coalesceMs?: number;
  onError?: (err: unknown) => void;
}

export class OutboxDispatcher {
  private readonly sinks: OutboxSink[] = [];
  private readonly rounds: CoalescedRounds;

  constructor(private readonly options: OutboxDispatcherOptions) {
    this.rounds = new CoalescedRounds({
      round: () => this.dispatchPending(),
      onError: (err) => this.options.onError?.(err),
      pollMs: options.pollMs ?? 1_000,
      coalesceMs: options.coalesceMs ?? 20,
    });
  }

  /** False before start() and after stop(): other dispatchers of committed work (notifications) pause with it. */
  get started(): boolean {
    return this.rounds.started;
  }

  addSink(sink: OutboxSink): void {
    this.sinks.push(sink);
  }

  start(): void {
    this.rounds.start();
  }

  async stop(): Promise<void> {
    await this.rounds.stop();
  }

  /** Asks for a dispatch round soon (after a commit that wrote outbox rows); wake-ups within coalesceMs share one. */
  wake(): void {
    this.rounds.wake();
  }

  /** Dispatches until nothing is pending; returns how many rows went out. Also used by the test clock. */
  async drain(): Promise<number> {
    // A round already under way holds its rows locked (SKIP LOCKED would pass over them): let it finish first.
    await this.rounds.current;
    return this.dispatchPending();
  }

  /** Dispatches batches until one comes back short: then nothing committed and unlocked was left. */
  private async dispatchPending(): Promise<number> {
    const size = this.options.batchSize ?? 200;
    let total = 0;
    for (;;) {
      const n = await this.dispatchBatch(size);
      total += n;
      if (n < size) return total;
    }
  }

  /**
   * One dispatch transaction: marks up to `size` pending rows dispatched (skipping rows another
   * round holds) and hands them to the sinks in writing order; the mark and what the sinks
   * write commit together.
   */
  private async dispatchBatch(size: number): Promise<number> {
    return this.options.db.tx(async (tx) => {
      // One row: the claimed batch as JSON in writing order (RETURNING alone has no order), and what each sink reads alongside.
      const alongside = this.sinks.map((sink, i) => `, ${sink.alongside ?? 'NULL'} AS alongside_${i}`).join('');
      const { rows } = await tx.query<Record<string, unknown> & { batch: OutboxRow[] | null }>(
        `WITH claimed AS (
           UPDATE outbox SET dispatched_at = $2
            WHERE id IN (SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
            RETURNING id, order_id, event, occurred_at, data, seq)
         SELECT (SELECT json_agg(json_build_object('id', c.id, 'orderId', c.order_id, 'event', c.event, 'occurredAt', c.occurred_at, 'data', c.data)
                             ORDER BY c.seq) FROM claimed c) AS batch${alongside}`,
        [size, this.options.clock.now()],
      );
      const batch = rows[0].batch ?? [];
      if (batch.length === 0) return 0;
      for (const [i, sink] of this.sinks.entries()) await sink.handle(tx, batch, rows[0][`alongside_${i}`]);
      return batch.length;
    });
  }
}
