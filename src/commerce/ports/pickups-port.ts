// Port `pickups`: goods staged at a store for the buyer to collect with a code, handed over, or cancelled on undo.
import type { NewPickup } from '../pickups-repo.js';

export interface PickupsPort {
  /** Stages a pickup: writes a `staged` row with a new id and collection code, and returns both. */
  stage(pickup: NewPickup, now: number): Promise<{ id: string; code: string }>;
  /** Cancels the pickups one node of the run staged that are still staged. */
  cancelStaged(orderId: string, generation: number, nodeId: string, now: number): Promise<void>;
  /** The run's first staged pickup (by staging time), or null. Reads only. */
  staged(orderId: string, generation: number): Promise<{ id: string; locationId: string } | null>;
  /** The buyer collected the pickup: it becomes `handed_over`. */
  handOver(pickupId: string, now: number): Promise<void>;
}
