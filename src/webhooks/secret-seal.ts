// Webhook signing secrets at rest: AES-256-GCM under a key derived from SECRET_KEY, bound to the subscription id.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** One key per purpose: the webhook-secret key is derived, never the service key itself. */
export function webhookSealKey(secretKey: Buffer): Buffer {
  return createHmac('sha256', secretKey).update('webhook-subscription-secret/v1').digest();
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url); the subscription id is authenticated data, so a sealed value cannot be moved to another row. */
export function sealWebhookSecret(key: Buffer, subscriptionId: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** Reverses sealWebhookSecret; throws when the key, the id or the text is wrong. */
export function openWebhookSecret(key: Buffer, subscriptionId: string, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(subscriptionId, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
