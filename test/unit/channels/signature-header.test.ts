// The inbound signature header: parsing rules and the HMAC over "<t>.<raw body>" (spec "Signed events route").
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseSignatureHeader, signatureHeaderFor, signRequest } from '../../../src/channels/signed/signature-header.js';

const HEX = 'a'.repeat(64);

describe('parseSignatureHeader', () => {
  it('reads t, k and every v1 (order and spaces do not matter)', () => {
    expect(parseSignatureHeader(`v1=${HEX}, k=int_1 ,t=1700000000,v1=${'B'.repeat(64)}`)).toEqual({
      ok: true,
      parts: { t: '1700000000', k: 'int_1', v1: [HEX, 'b'.repeat(64)] },
    });
  });

  it.each([
    [undefined, /Missing/],
    ['', /Missing/],
    [`k=int_1,v1=${HEX}`, /t=/],
    [`t=soon,k=int_1,v1=${HEX}`, /t=/],
    [`t=-5,k=int_1,v1=${HEX}`, /t=/],
    [`t=1700000000,v1=${HEX}`, /k=/],
    [`t=1700000000,k=,v1=${HEX}`, /k=/],
    ['t=1700000000,k=int_1', /v1=/],
    ['t=1700000000,k=int_1,v1=abc', /v1=/],
  ])('%s is refused', (header, message) => {
    const parsed = parseSignatureHeader(header);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(message);
  });
});

describe('signing', () => {
  it('v1 is the hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret', () => {
    const raw = '{"orderId":"ord_1","event":"seller.responded"}';
    expect(signRequest('whsec_x', 1700000000, raw)).toBe(createHmac('sha256', 'whsec_x').update(`1700000000.${raw}`).digest('hex'));
  });

  it('signatureHeaderFor puts t in seconds and the integration id in k', () => {
    const header = signatureHeaderFor('int_9', 'whsec_y', 1_700_000_000_999, 'body');
    expect(header).toBe(`t=1700000000,k=int_9,v1=${signRequest('whsec_y', 1700000000, 'body')}`);
    expect(parseSignatureHeader(header).ok).toBe(true);
  });
});
