// Port `people` in a simulation: the enabled operators' emails as the snapshot read them.
import type { PeoplePort } from '../ports/people-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedPeoplePort(ledger: SimulatedLedger): PeoplePort {
  return { operatorEmails: () => Promise.resolve([...ledger.operatorEmails]) };
}
