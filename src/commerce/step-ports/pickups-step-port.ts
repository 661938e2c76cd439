// Port `pickups` over a slice's store: the pickups repository, reads through the reader, writes through the writer.
import type { StepStore } from '../../engine/step-store.js';
import { cancelStagedPickups, markPickupHandedOver, stagedPickup, stagePickup } from '../pickups-repo.js';
import type { PickupsPort } from '../ports/pickups-port.js';

export function pickupsPort(store: StepStore): PickupsPort {
  return {
    stage: (pickup, now) => stagePickup(store.writer, pickup, now),
    cancelStaged: (orderId, generation, nodeId, now) => cancelStagedPickups(store.writer, orderId, generation, nodeId, now),
    staged: (orderId, generation) => stagedPickup(store.reader, orderId, generation),
    handOver: (pickupId, now) => markPickupHandedOver(store.writer, pickupId, now),
  };
}
