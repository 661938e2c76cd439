// The authorization server's keys: a signing key made once and kept sealed under SECRET_KEY, cookie keys derived from it.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { initSetting, writeSetting } from '../db/settings-store.js';
import { deriveSecretKey, openSecret, sealSecret } from '../auth/secret-box.js';

const SIGNING_KEY_SETTING = 'oauth_signing_key';

/**
 * The ES256 signing key (a private JWK), made by the first node to start and shared through
 * PostgreSQL like the stored SECRET_KEY; sealed under the `oauth/signing` purpose key, so a database
 * backup without SECRET_KEY does not reveal it.
 */
export async function oauthSigningJwk(q: Queryable, secretKey: Buffer, now: number): Promise<Record<string, unknown>> {
  const sealKey = deriveSecretKey(secretKey, 'oauth/signing');
  const fresh = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'ES256', use: 'sig' };
  const sealedFresh = sealSecret(sealKey, JSON.stringify(fresh), SIGNING_KEY_SETTING);
  const sealed = await initSetting(q, SIGNING_KEY_SETTING, sealedFresh, now);
  try {
    return JSON.parse(openSecret(sealKey, sealed, SIGNING_KEY_SETTING)) as Record<string, unknown>;
  } catch {
    // Sealed under a SECRET_KEY that has since changed: it can never be opened again, so a new key replaces it.
    // Access tokens are opaque (stored, not signed), so nothing a client holds depends on the old key.
    await writeSetting(q, SIGNING_KEY_SETTING, sealedFresh, now);
    return fresh;
  }
}

/** Keys that sign the authorization server's cookies (interaction, session), the same on every node. */
export function oauthCookieKeys(secretKey: Buffer): string[] {
  return [deriveSecretKey(secretKey, 'oauth/cookies').toString('base64url')];
}
