// Port `documents` in a simulation: the simulated order's inbound text (its input's documentText), kept in memory.
import type { DocumentsPort } from '../ports/documents-port.js';
import type { SimulatedLedger } from './simulated-ledger.js';

export function simulatedDocumentsPort(ledger: SimulatedLedger): DocumentsPort {
  return { inboundText: (orderId) => Promise.resolve(orderId === ledger.orderId ? ledger.documentText : null) };
}
