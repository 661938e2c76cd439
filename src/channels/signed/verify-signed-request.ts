// Authenticates a signed inbound request: header, 5-minute skew, integration, HMAC over the raw bytes in constant time.
import { timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/db.js';
import { unauthorized } from '../../domain/errors.js';
import type { Integration } from '../integrations/integration.js';
import { integrationForVerifying, touchIntegration } from '../integrations/integration-store.js';
import { parseSignatureHeader, signRequest, SIGNATURE_SKEW_SECONDS } from './signature-header.js';

/** A request that verified: who signed it and the `v1` that matched (the replay key of an event). */
export interface VerifiedRequest {
  integration: Integration;
  signature: string;
  /** The signed timestamp, epoch ms. */
  signedAt: number;
}

/**
 * Every failure is a 401 with its own message: no or malformed header, no `k=`, a timestamp more
 * than 5 minutes from `now` (stale or future), an unknown or revoked integration, or no `v1`
 * matching the current secret or the overlap secret of the last rotation. A verified request
 * sets the integration's `lastUsedAt`.
 */
export async function verifySignedRequest(q: Queryable, sealKey: Buffer, header: string | undefined, rawBody: Buffer, now: number): Promise<VerifiedRequest> {
  const parsed = parseSignatureHeader(header);
  if (!parsed.ok) throw unauthorized(parsed.error);
  const { t, k, v1 } = parsed.parts;
  const signedAt = Number(t) * 1000;
  if (Math.abs(now - signedAt) > SIGNATURE_SKEW_SECONDS * 1000)
    throw unauthorized(`Signature timestamp is more than ${SIGNATURE_SKEW_SECONDS / 60} minutes from server time`);
  const found = await integrationForVerifying(q, sealKey, k, now);
  if (!found) throw unauthorized('Unknown or revoked integration');
  let matched: string | null = null;
  for (const secret of found.secrets) {
    const expected = Buffer.from(signRequest(secret, t, rawBody), 'hex');
    for (const candidate of v1) if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) matched ??= candidate;
  }
  if (matched === null) throw unauthorized('Signature does not match');
  await touchIntegration(q, found.integration.id, now);
  return { integration: { ...found.integration, lastUsedAt: now }, signature: matched, signedAt };
}
