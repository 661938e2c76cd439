// The port through which external steps reach the world: the host supplies it (outbound HTTP with the SSRF rules).
import type { ExternalAnswer, ExternalRequest } from '../node-type.js';

/** What a transport reports; the executor adds the attempt and the key. */
export type TransportAnswer = Omit<ExternalAnswer, 'attempt' | 'idempotencyKey'>;

export interface CallTransport {
  /**
   * Makes `request` with the `Idempotency-Key` header (and the signature when it names an
   * integration), outside any transaction; never throws: a failure is an answer without status.
   */
  send(request: ExternalRequest, idempotencyKey: string, now: number): Promise<TransportAnswer>;
}

/** The transport of an engine built without one (unit harnesses): every call fails, retryably. */
export const noCallTransport: CallTransport = {
  send: async () => ({ status: null, body: null, error: 'No call transport is configured', terminal: false }),
};
