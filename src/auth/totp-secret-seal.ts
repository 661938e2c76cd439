// TOTP secrets at rest: sealed under their own purpose key with the person id as authenticated data (security review L6).
import { deriveSecretKey, openSecret, sealSecret } from './secret-box.js';

/** Marks the current form; a value without it was sealed the legacy way (service key itself, no context). */
export const TOTP_SEAL_PREFIX = 'totp1:';
const PURPOSE = 'totp/v1';

/** A TOTP secret as it opened, and whether it was in the legacy form (then it should be re-sealed). */
export interface OpenedTotpSecret {
  secret: string;
  legacy: boolean;
}

/**
 * Seals a person's TOTP secret (enabled or pending enrolment: the same kind of value) under
 * `deriveSecretKey(key, 'totp/v1')` with the person id as AAD, so the sealed value opens neither
 * as another kind of secret nor in another person's row.
 */
export function sealTotpSecret(secretKey: Buffer, personId: string, plain: string): string {
  return TOTP_SEAL_PREFIX + sealSecret(deriveSecretKey(secretKey, PURPOSE), plain, personId);
}

/**
 * Opens what sealTotpSecret produced for this person; null when it does not open (moved from
 * another row, another key). A value without the prefix is read the legacy way, once: the
 * callers re-seal it (on use, and the start-up sweep), so the legacy form goes away.
 */
export function openTotpSecret(secretKey: Buffer, personId: string, sealed: string): OpenedTotpSecret | null {
  try {
    if (sealed.startsWith(TOTP_SEAL_PREFIX))
      return { secret: openSecret(deriveSecretKey(secretKey, PURPOSE), sealed.slice(TOTP_SEAL_PREFIX.length), personId), legacy: false };
    return { secret: openSecret(secretKey, sealed), legacy: true };
  } catch {
    return null;
  }
}
