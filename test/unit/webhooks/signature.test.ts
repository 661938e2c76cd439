// The outbound signature (spec "Delivery format"): t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, 5-minute skew.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../../src/webhooks/signature.js';

describe('signatures', () => {
  const secret = 'whsec_test';
  const body = '{"id":"whd_1","event":"order.paid"}';
  const now = 1_800_000_000_123;

  it('v1 is the hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret', () => {
    const header = signatureHeader(secret, now, body);
    const t = Math.floor(now / 1000);
    expect(header).toBe(`t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`);
  });

  it('verifies the same bytes only, with the same secret, within 5 minutes', () => {
    const header = signatureHeader(secret, now, body);
    expect(verifySignature(secret, header, body, now)).toBe(true);
    expect(verifySignature(secret, header, Buffer.from(body), now + 299_000)).toBe(true);
    expect(verifySignature(secret, header, body, now + 301_000)).toBe(false);
    expect(verifySignature(secret, header, body, now - 301_000)).toBe(false);
    expect(verifySignature('whsec_other', header, body, now)).toBe(false);
    expect(verifySignature(secret, header, body.replace('paid', 'Paid'), now)).toBe(false);
    expect(verifySignature(secret, 't=abc,v1=00', body, now)).toBe(false);
  });
});
