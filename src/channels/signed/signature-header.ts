// The inbound signature header `X-Service-Signature: t=<unix seconds>,k=<integration id>,v1=<hex HMAC>` (spec "Signed events route").
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';

/** Spec "Limits": a signature's timestamp may be this far from server time, either way. */
export const SIGNATURE_SKEW_SECONDS = 300;

/** A header that parsed: `t` as sent (it is signed as text), the integration id, and every `v1` given. */
export interface SignatureParts {
  t: string;
  k: string;
  v1: string[];
}

export type ParsedSignature = { ok: true; parts: SignatureParts } | { ok: false; error: string };

const T = /^\d{1,12}$/;
const HEX_SHA256 = /^[0-9a-f]{64}$/;

/**
 * Parses the header; each problem has its own 401 message. Several `v1=` entries are allowed
 * (a sender may sign with the old and the new secret during a rotation); any one may match.
 */
export function parseSignatureHeader(value: string | undefined): ParsedSignature {
  if (value === undefined || value.trim() === '') return { ok: false, error: `Missing ${SIGNATURE_HEADER} header` };
  let t: string | undefined;
  let k: string | undefined;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (name === 't') t = val;
    else if (name === 'k') k = val;
    else if (name === 'v1') v1.push(val.toLowerCase());
  }
  if (t === undefined || !T.test(t)) return { ok: false, error: 'Signature has no valid t= timestamp (unix seconds)' };
  if (k === undefined || k === '') return { ok: false, error: 'Signature has no k= (integration id)' };
  const valid = v1.filter((v) => HEX_SHA256.test(v));
  if (valid.length === 0) return { ok: false, error: 'Signature has no valid v1= (hex HMAC-SHA256)' };
  return { ok: true, parts: { t, k, v1: valid } };
}

/** Hex HMAC-SHA256 of `<t>.<raw body>` keyed by `secret`: what `v1` must be. */
export function signRequest(secret: string, t: string | number, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('hex');
}

/** The whole header for a body signed at `nowMs` (what a sender does; our tests use it). */
export function signatureHeaderFor(integrationId: string, secret: string, nowMs: number, rawBody: string | Buffer): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},k=${integrationId},v1=${signRequest(secret, t, rawBody)}`;
}
