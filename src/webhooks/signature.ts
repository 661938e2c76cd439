// The outbound signature header (spec "Delivery format"): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers reject a `t` further than this from their clock. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function signatureHex(secret: string, t: number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/** The `x-service-signature` value for a body sent at `nowMs`. */
export function signatureHeader(secret: string, nowMs: number, rawBody: string | Buffer): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${signatureHex(secret, t, rawBody)}`;
}

/**
 * What a receiver does (and our tests do): parse `t` and `v1`, recompute over the raw bytes,
 * compare in constant time, and refuse a timestamp more than 5 minutes away.
 */
export function verifySignature(secret: string, header: string, rawBody: string | Buffer, nowMs: number): boolean {
  const parts = new Map(header.split(',').map((p) => p.trim().split('=', 2) as [string, string]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1');
  if (!Number.isInteger(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return false;
  if (Math.abs(nowMs / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  return timingSafeEqual(Buffer.from(v1, 'hex'), Buffer.from(signatureHex(secret, t, rawBody), 'hex'));
}
