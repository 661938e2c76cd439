// The `documents` port over a slice's store (reads only).
import type { StepStore } from '../../engine/step-store.js';
import { readInboundDocumentText } from '../inbound-documents-repo.js';
import type { DocumentsPort } from '../ports/documents-port.js';

export function documentsPort(store: StepStore): DocumentsPort {
  return { inboundText: (orderId) => readInboundDocumentText(store.reader, orderId) };
}
