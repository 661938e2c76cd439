// Delivery attempt timing (contract section 10), shared by every attempt worker: first attempt at once, retries 10, 20, 40, 80, 160 s after each failure.

/** Six attempts in all: the first and five retries. */
export const MAX_ATTEMPTS = 6;

/** Delay before retry n+1 after attempt n failed (n = 1..5). */
export const RETRY_DELAYS_MS = [10_000, 20_000, 40_000, 80_000, 160_000] as const;

/**
 * How long past its expected time a guard timer waits: each attempt keeps a timer for the
 * next one, due only after the attempt could have finished, so a crash mid-attempt still
 * leads to a retry (or, after the last attempt, to `failed`).
 */
export const GUARD_MARGIN_MS = 5_000;

/** How one kind of attempt is stored as durable timers: its kind, and the payload key of the row id (timers already stored carry it). */
export interface AttemptTimerKind {
  kind: string;
  idKey: string;
}

export function attemptTimerId(rowId: string, attempt: number): string {
  return `${rowId}:attempt:${attempt}`;
}

/** The delay after a failed attempt `n`; null after the last one. */
export function retryDelay(n: number): number | null {
  return n >= 1 && n < MAX_ATTEMPTS ? RETRY_DELAYS_MS[n - 1] : null;
}

/**
 * When the guard of attempt n + 1 falls due, attempt `n` being made at `now` (n = 0: the first attempt's guard,
 * written with the row): after that attempt's timeout, its retry delay and the margin.
 */
export function guardDueAt(now: number, timeoutMs: number, n: number): number {
  return now + timeoutMs + (retryDelay(n) ?? 0) + GUARD_MARGIN_MS;
}

/** The durable timer of attempt `attempt` of row `rowId`, due at `dueAt`. */
export function attemptTimer(timer: AttemptTimerKind, rowId: string, attempt: number, dueAt: number) {
  return { id: attemptTimerId(rowId, attempt), kind: timer.kind, orderId: null, dueAt, payload: { [timer.idKey]: rowId, attempt } };
}

/** The row id and attempt number a timer's payload names; null when it names none. */
export function attemptOfTimer(timer: AttemptTimerKind, payload: unknown): { rowId: string; attempt: number } | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const rowId: unknown = Reflect.get(payload, timer.idKey);
  const attempt: unknown = Reflect.get(payload, 'attempt');
  return typeof rowId === 'string' && rowId && typeof attempt === 'number' && attempt ? { rowId, attempt } : null;
}
