// The storefront platform's webhook authentication: base64 HMAC-SHA256 of the raw body keyed by the app's client secret.
import { createHmac } from 'node:crypto';
import { safeEqual } from '../../auth/constant-time.js';

/** Base64 HMAC-SHA256 of the raw bytes: what the platform sends in its HMAC header. */
export function platformHmac(secret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Compares the header with the expected HMAC in constant time (both sides hashed first). */
export function verifyPlatformHmac(secret: string, rawBody: Buffer, header: string): boolean {
  return safeEqual(header.trim(), platformHmac(secret, rawBody));
}
