// Port `pickups` in a simulation: goods staged for collection in memory, handed over, or cancelled on undo.
import { newCommerceId, newHumanCode } from '../../domain/commerce-ids.js';
import type { PickupsPort } from '../ports/pickups-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedPickupsPort(ledger: SimulatedLedger): PickupsPort {
  return {
    stage: (pickup, now) => {
      const row = ledger.insert(ledger.pickups, { ...pickup, id: newCommerceId('pu'), code: newHumanCode(2, 4), status: 'staged', stagedAt: now });
      return Promise.resolve({ id: row.id, code: row.code });
    },
    cancelStaged: (orderId, generation, nodeId) => {
      for (const p of ledger.pickups)
        if (p.orderId === orderId && p.generation === generation && p.nodeId === nodeId && p.status === 'staged') ledger.patch(p, { status: 'cancelled' });
      return Promise.resolve();
    },
    staged: (orderId, generation) => {
      const first = ledger.pickups.filter((p) => p.orderId === orderId && p.generation === generation && p.status === 'staged').sort((a, b) => a.stagedAt - b.stagedAt)[0];
      return Promise.resolve(first ? { id: first.id, locationId: first.locationId } : null);
    },
    handOver: (pickupId) => {
      const p = ledger.pickups.find((x) => x.id === pickupId);
      if (p) ledger.patch(p, { status: 'handed_over' });
      return Promise.resolve();
    },
  };
}
