// The HTTP payment gateway's requests and answers (docs/integrations.md): paths, bodies in minor units, and how statuses map to step errors.
import { describe, expect, it } from 'vitest';
import type { ExternalAnswer } from '../../../src/engine/node-type.js';
import { RetryableError, TerminalError } from '../../../src/domain/errors.js';
import {
  authorizationAnswer,
  authorizationRequest,
  captureAnswer,
  captureRequest,
  chargeAnswer,
  chargeRequest,
  refundAnswer,
  refundRequest,
  voidRequest,
} from '../../../src/commerce/http-payment-gateway.js';

const adapter = { url: 'https://pay.example.com/v1', secret: 'int_pay', timeoutMs: 7000 };
const answer = (status: number | null, body: unknown = null, more: Partial<ExternalAnswer> = {}): ExternalAnswer => ({
  status, body, error: status === null ? 'No answer within 7000 ms' : null, terminal: false, attempt: 1, idempotencyKey: 'oo-1', ...more,
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('requests', () => {
  it('every operation is a signed POST under the adapter URL with the adapter timeout; amounts are minor units', () => {
    expect(authorizationRequest(adapter, { orderId: 'ord_1', amountMinor: 1250, currency: 'USD', reference: 'ord_1:1:authorize' })).toEqual({
      method: 'POST',
      url: 'https://pay.example.com/v1/authorizations',
      headers: {},
      body: { orderId: 'ord_1', amount: 1250, currency: 'USD', reference: 'ord_1:1:authorize' },
      timeoutMs: 7000,
      signWith: 'int_pay',
    });
    expect(captureRequest(adapter, { authorizationRef: 'au/1', amountMinor: 900, currency: 'JPY' })).toMatchObject({
      url: 'https://pay.example.com/v1/authorizations/au%2F1/capture',
      body: { amount: 900, currency: 'JPY' },
    });
    expect(voidRequest({ ...adapter, secret: null }, 'au_1')).toMatchObject({ url: 'https://pay.example.com/v1/authorizations/au_1/void', body: {}, signWith: null });
    expect(chargeRequest(adapter, { orderId: 'ord_1', amountMinor: 500, currency: 'EUR', method: 'card_present', reference: 'r' })).toMatchObject({
      url: 'https://pay.example.com/v1/charges',
      body: { orderId: 'ord_1', amount: 500, currency: 'EUR', method: 'card_present', reference: 'r' },
    });
  });

  it('a refund carries every part (gateway charge id and amount) in one request', () => {
    const req = refundRequest(adapter, { orderId: 'ord_1', currency: 'USD', reason: null, parts: [{ chargeRef: 'ch_b', amountMinor: 300 }, { chargeRef: 'ch_a', amountMinor: 200 }] });
    expect(req).toMatchObject({
      url: 'https://pay.example.com/v1/refunds',
      body: { orderId: 'ord_1', currency: 'USD', reason: null, refunds: [{ chargeId: 'ch_b', amount: 300 }, { chargeId: 'ch_a', amount: 200 }] },
    });
  });
});

describe('answers', () => {
  it('a 2xx with an id gives the gateway reference', () => {
    expect(authorizationAnswer(answer(201, { id: 'au_9' }))).toEqual({ gatewayRef: 'au_9' });
    expect(captureAnswer(answer(200, { id: 'ch_9', extra: true }))).toEqual({ gatewayRef: 'ch_9' });
    expect(chargeAnswer(answer(200, { id: 'ch_8' }))).toEqual({ gatewayRef: 'ch_8' });
    expect(refundAnswer(answer(200, { refunds: [{ id: 're_1' }, { id: 're_2' }] }), 2)).toEqual({ gatewayRefs: ['re_1', 're_2'] });
  });

  it('402 and other 4xx (not 408/429) are declines: TerminalError card_declined, with what the gateway said', () => {
    for (const status of [402, 400, 422]) {
      const err = thrown(() => authorizationAnswer(answer(status, { error: 'card_declined', message: 'Insufficient funds' })));
      expect(err).toBeInstanceOf(TerminalError);
      expect(err).toMatchObject({ code: 'card_declined', message: `Card declined by the payment gateway (HTTP ${status}: Insufficient funds)` });
    }
    expect(thrown(() => chargeAnswer(answer(402)))).toMatchObject({ code: 'card_declined' });
    expect(thrown(() => captureAnswer(answer(409, { error: 'already captured' })))).toMatchObject({ code: 'capture_refused', message: 'The payment gateway refused the capture (HTTP 409: already captured)' });
  });

  it('5xx, 408, 429 and no answer may pass later: RetryableError', () => {
    for (const a of [answer(500), answer(503, 'busy'), answer(408), answer(429), answer(null)]) {
      const err = thrown(() => authorizationAnswer(a));
      expect(err).toBeInstanceOf(RetryableError);
      expect(err).toMatchObject({ code: 'authorize_error' });
    }
    expect(thrown(() => captureAnswer(answer(null)))).toMatchObject({ message: 'The payment gateway failed to capture (No answer within 7000 ms)' });
  });

  it('an answer the host marked terminal (unsigned: the integration is revoked) and a redirect are not retried', () => {
    expect(thrown(() => authorizationAnswer(answer(null, null, { terminal: true, error: 'Integration int_pay is unknown or revoked' })))).toBeInstanceOf(TerminalError);
    expect(thrown(() => authorizationAnswer(answer(302)))).toBeInstanceOf(TerminalError);
  });

  it('a 2xx without the documented body is a TerminalError naming what is missing', () => {
    expect(thrown(() => authorizationAnswer(answer(200, 'ok')))).toMatchObject({ message: 'The payment gateway failed to authorize: HTTP 200 without a JSON object body' });
    expect(thrown(() => authorizationAnswer(answer(200, { id: 42 })))).toBeInstanceOf(TerminalError);
    expect(thrown(() => refundAnswer(answer(200, { refunds: [{ id: 're_1' }] }), 2))).toMatchObject({ message: "The payment gateway failed to refund: the answer's `refunds` is not a list of 2" });
    expect(thrown(() => refundAnswer(answer(200, { refunds: [{ id: 're_1' }, {}] }), 2))).toMatchObject({ message: 'The payment gateway failed to refund: the answer has no `refunds[1].id` (a string of 1-200 characters)' });
  });
});
