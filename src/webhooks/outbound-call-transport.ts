// External steps' transport: their requests as outbound HTTP under the SSRF rules, signed like order webhooks.
import type { CallTransport, TransportAnswer } from '../engine/runtime/call-transport.js';
import { RESPONSE_READ_LIMIT, sendOutbound } from './outbound-post.js';
import { signatureHeader } from './signature.js';

export interface OutboundCallTransportOptions {
  /** OUTBOUND_ALLOW_LOOPBACK=1 (testing only). */
  allowLoopback: boolean;
  /** The current secret of an active integration, or null when it is unknown or revoked. */
  secretOf(integrationId: string, now: number): Promise<string | null>;
  /** Name resolution (tests may replace it). */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
  userAgent?: string;
}

/** The answer's body as a step sees it: its JSON when it is JSON, else its text (already cut to the read limit); null when empty. */
function answerBody(bytes: Buffer | null, truncated: boolean): unknown {
  if (!bytes || bytes.length === 0) return null;
  const text = bytes.toString('utf8');
  if (!truncated) {
    try {
      return JSON.parse(text);
    } catch {
      // not JSON: the text
    }
  }
  return text.slice(0, RESPONSE_READ_LIMIT);
}

export function outboundCallTransport(options: OutboundCallTransportOptions): CallTransport {
  return {
    async send(request, idempotencyKey, now): Promise<TransportAnswer> {
      const body = request.body === null || request.body === undefined ? null : JSON.stringify(request.body);
      const headers: Record<string, string> = {
        ...request.headers,
        'user-agent': options.userAgent ?? 'order-orchestration/1',
        'idempotency-key': idempotencyKey,
        accept: 'application/json',
      };
      if (body !== null) headers['content-type'] = 'application/json';
      if (request.signWith) {
        const secret = await options.secretOf(request.signWith, now);
        if (!secret) return { status: null, body: null, error: `Integration ${request.signWith} is unknown or revoked: the request cannot be signed`, terminal: true };
        headers['x-service-signature'] = signatureHeader(secret, now, body ?? '');
      }
      const got = await sendOutbound(request.method, request.url, headers, body, {
        timeoutMs: request.timeoutMs,
        allowLoopback: options.allowLoopback,
        resolve: options.resolve,
        readBody: true,
      });
      const answered = got.status !== null && got.status > 0 && !(got.status >= 300 && got.status < 400);
      return {
        status: answered ? got.status : null,
        body: answerBody(got.body, got.truncated),
        error: answered ? null : got.error,
        // A request Node refuses to build is refused the same way on every attempt: a terminal failure of the step.
        terminal: got.unsendable === true,
      };
    },
  };
}
