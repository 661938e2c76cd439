// Encrypts small secrets at rest (TOTP, webhook and integration secrets) with AES-256-GCM: the one sealing helper.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * A key for one purpose, derived from the service secret key (HMAC-SHA256 of the purpose),
 * so a sealed value of one kind can never be opened as another kind.
 */
export function deriveSecretKey(secretKey: Buffer, purpose: string): Buffer {
  return createHmac('sha256', secretKey).update(purpose).digest();
}

/**
 * `v1.<iv>.<tag>.<ciphertext>`, all base64url. `context` (e.g. the owning row's id) is
 * authenticated data: the sealed value opens only with the same context, so it cannot be
 * copied to another row. No context is the same as an empty one.
 */
export function sealSecret(key: Buffer, plain: string, context = ''): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (context) cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** Decrypts what sealSecret produced; throws when the key, the context or the text is wrong. */
export function openSecret(key: Buffer, sealed: string, context = ''): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (context) decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
