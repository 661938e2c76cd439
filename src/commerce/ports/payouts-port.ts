// Port `payouts`: what the marketplace owes its third-party sellers for an order, scheduled and reversed.
import type { NewPayout, PayoutRow } from '../payouts-repo.js';

export interface PayoutsPort {
  /**
   * Schedules the order's payouts: writes a `scheduled` payouts row per seller, except a seller
   * that already has one for the order (a retry changes nothing). Returns each seller's stored payout, in the order given.
   */
  schedule(orderId: string, currency: string, payouts: readonly NewPayout[], now: number): Promise<PayoutRow[]>;
  /** Undo: the order's scheduled payouts become reversed (a paid payout is left alone). */
  reverseScheduled(orderId: string, now: number): Promise<void>;
}
