// The EDI 850 adapter: one interchange in, one inbound start per purchase order, one result per transaction (spec "EDI 850 adapter").
import type { OrderServiceDeps } from '../../orders/start-order.js';
import { DomainError, forbidden, type ErrorKind } from '../../domain/errors.js';
import { inboundOrderBodySchema } from '../../domain/order-input-schema.js';
import type { Logger } from '../../logging/logger.js';
import { readChannelSettings } from '../channel-settings.js';
import { startInboundOrder } from '../inbound/inbound-start.js';
import { mapX12850, type X12850Result } from './x12-850-mapper.js';
import { X12EnvelopeError } from './x12-envelope-error.js';
import { readX12Head, x12Text } from './x12-tokenizer.js';
import { isUnstorableText } from '../../db/unstorable-text.js';

/**
 * One transaction's outcome, transport-free: started, replayed, or the kind of refusal its inbound start
 * alone would get (`internal` for a bug). The HTTP route turns it into that start's status (201, 200, 4xx).
 */
export type Edi850Outcome = 'started' | 'replayed' | ErrorKind | 'internal';

export interface Edi850Result {
  control: string;
  poNumber?: string;
  outcome: Edi850Outcome;
  orderId?: string;
  flowId?: string;
  replayed?: true;
  error?: string;
}

export interface Edi850Response {
  sender: string;
  results: Edi850Result[];
}

export interface Edi850Deps extends OrderServiceDeps {
  logger: Logger;
}

/**
 * 400 for a body that is not one readable interchange; 403 when the sender (ISA06) is not in
 * the workspace partner list; otherwise 200 with a result per transaction set, in order. Each
 * 850 starts (or replays) a b2b order for the partner's customer; anything else is a 400 result.
 * Tolerated envelope oddities (GS01 codes, IEA02 mismatches, repeated control numbers) are logged.
 */
export async function receiveEdi850(deps: Edi850Deps, rawBody: Buffer, startedBy: string): Promise<Edi850Response> {
  const text = x12Text(rawBody);
  if (text.trim() === '') throw new DomainError('empty_body', 'The body is empty: send one X12 interchange', 'invalid_input');
  // The sender is read from the fixed-width ISA header alone and checked first (security review L1):
  // only a partner's interchange is tokenized and mapped, within X12_LIMITS (segments, elements, transaction sets).
  const sender = envelope(() => readX12Head(text)).header.sender;
  if (sender === '') throw new DomainError('x12_envelope', 'ISA06 (interchange sender id) is empty', 'invalid_input');
  const settings = await readChannelSettings(deps.db);
  const customerId = Object.hasOwn(settings.ediPartners, sender) ? settings.ediPartners[sender] : undefined;
  if (customerId === undefined) throw forbidden(`EDI sender ${sender} is not in the partner list`);
  const mapping = envelope(() => mapX12850(text));
  if (mapping.warnings.length > 0) deps.logger.info({ sender, warnings: mapping.warnings }, 'EDI interchange read with tolerated envelope oddities');

  const results: Edi850Result[] = [];
  for (const result of mapping.results) results.push(await startTransaction(deps, result, customerId, startedBy));
  return { sender, results };
}

/** Runs a body-level X12 step; an envelope problem is the request's 400. */
function envelope<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof X12EnvelopeError) throw new DomainError('x12_envelope', err.message, 'invalid_input');
    throw err;
  }
}

/** Starts one mapped 850; its failure becomes that transaction's status, never the request's. */
async function startTransaction(deps: Edi850Deps, result: X12850Result, customerId: string, startedBy: string): Promise<Edi850Result> {
  const head = { control: result.control, ...(result.poNumber !== undefined ? { poNumber: result.poNumber } : {}) };
  if (!result.ok) return { ...head, outcome: 'invalid_input', error: result.error };
  const parsed = inboundOrderBodySchema.safeParse({ ...result.order, customerId });
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
    return { ...head, outcome: 'invalid_input', error: `The purchase order does not make a valid order: ${detail}` };
  }
  try {
    // The fingerprint covers the purchase order as sent; the partner's customer is the server's lookup.
    const outcome = await startInboundOrder(deps, { body: parsed.data, via: 'edi', startedBy, sent: result.order });
    return outcome.replayed
      ? { ...head, outcome: 'replayed', orderId: outcome.orderId, flowId: outcome.flowId, replayed: true }
      : { ...head, outcome: 'started', orderId: outcome.orderId, flowId: outcome.flowId };
  } catch (err) {
    if (err instanceof DomainError && err.kind !== 'unavailable') return { ...head, outcome: err.kind, error: err.message };
    // Backstop for text PostgreSQL cannot store (the mapper refuses control characters first): the sender's fault.
    if (isUnstorableText(err)) return { ...head, outcome: 'invalid_input', error: 'The purchase order holds characters that cannot be stored' };
    deps.logger.error({ err, control: result.control }, 'EDI transaction failed to start');
    return { ...head, outcome: 'internal', error: 'Internal error' };
  }
}
