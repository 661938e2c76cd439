// The authorization server's keys: a signing key made once and kept sealed under SECRET_KEY, cookie keys derived from it.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { initSetting } from '../db/settings-store.js';
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
  const sealed = await initSetting(q, SIGNING_KEY_SETTING, sealSecret(sealKey, JSON.stringify(fresh), SIGNING_KEY_SETTING), now);
  return JSON.parse(openSecret(sealKey, sealed, SIGNING_KEY_SETTING)) as Record<string, unknown>;
}

/** Keys that sign the authorization server's cookies (interaction, session), the same on every node. */
export function oauthCookieKeys(secretKey: Buffer): string[] {
  return [deriveSecretKey(secretKey, 'oauth/cookies').toString('base64url')];
}
