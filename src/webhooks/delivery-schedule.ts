// Delivery attempt timing (contract section 10): first attempt at once, retries 10, 20, 40, 80, 160 s after each failure.

/** Six attempts in all: the first and five retries. */
export const MAX_ATTEMPTS = 6;

/** Delay before retry n+1 after attempt n failed (n = 1..5). */
export const RETRY_DELAYS_MS = [10_000, 20_000, 40_000, 80_000, 160_000] as const;

/** Timer kind of delivery attempts in the durable scheduler. */
export const DELIVERY_TIMER_KIND = 'webhook.delivery';

/**
 * How long past its expected time a guard timer waits: each attempt keeps a timer for the
 * next one, due only after the attempt could have finished, so a crash mid-attempt still
 * leads to a retry (or, after the last attempt, to `failed`).
 */
export const GUARD_MARGIN_MS = 5_000;

export function attemptTimerId(deliveryId: string, attempt: number): string {
  return `${deliveryId}:attempt:${attempt}`;
}

/** The delay after a failed attempt `n`; null after the last one. */
export function retryDelay(n: number): number | null {
  return n >= 1 && n < MAX_ATTEMPTS ? RETRY_DELAYS_MS[n - 1] : null;
}
