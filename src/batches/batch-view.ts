// A batch as the API shows it (contract 16) and as its row reads, with the outcome of one processed order.

export const BATCH_STATES = ['running', 'paused', 'completed', 'cancelled'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

/** How one order of a batch ended: `done`, `skipped` (the operation refused it), `failed` (an unexpected error). */
/** Orders begun per second when a batch is started without a rate (contract 16): the migrations route, the Move form, POST /api/v1/batches. */
export const DEFAULT_BATCH_RATE = 50;

export const BATCH_OUTCOMES = ['done', 'failed', 'skipped'] as const;
export type BatchOutcome = (typeof BATCH_OUTCOMES)[number];

/** Contract 16's batch: times are epoch ms of the service clock. */
export interface BatchView {
  id: string;
  operation: string;
  state: BatchState;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  ratePerSecond: number;
  createdAt: number;
  createdBy: string;
  finishedAt: number | null;
}

export interface BatchResult {
  orderId: string;
  outcome: BatchOutcome;
  error?: string;
}

/** The columns of `batches` a view reads. */
export const BATCH_COLUMNS = 'id, operation, state, total, done, failed, skipped, rate_per_second, created_at, created_by, finished_at';

/** A `batches` row as pg returns it (bigint columns as text). */
export interface BatchDbRow {
  id: string;
  operation: string;
  state: BatchState;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  rate_per_second: number;
  created_at: string;
  created_by: string;
  finished_at: string | null;
}

export function toBatchView(r: BatchDbRow): BatchView {
  return {
    id: r.id,
    operation: r.operation,
    state: r.state,
    total: r.total,
    done: r.done,
    failed: r.failed,
    skipped: r.skipped,
    ratePerSecond: r.rate_per_second,
    createdAt: Number(r.created_at),
    createdBy: r.created_by,
    finishedAt: r.finished_at === null ? null : Number(r.finished_at),
  };
}
