// High-entropy secrets (session, API token, challenge) and their SHA-256 digests, which is all we store.
import { createHash, randomBytes } from 'node:crypto';

/** A random URL-safe secret of `bytes` bytes of entropy. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The SHA-256 digest of a secret: what the database keeps and looks up by (an index lookup, no timing signal on the secret). */
export function sha256(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** A random identifier with a readable prefix, e.g. `usr_3f9c…`. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}
