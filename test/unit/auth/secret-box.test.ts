// Sealing secrets at rest: AES-256-GCM, per-purpose keys, the owning row's id as authenticated data.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSecretKey, openSecret, sealSecret } from '../../../src/auth/secret-box.js';

const serviceKey = randomBytes(32);

describe('secret box', () => {
  it('round-trips, with a fresh IV each time', () => {
    const key = deriveSecretKey(serviceKey, 'integration-secret/v1');
    const a = sealSecret(key, 'whsec_abc', 'int_1');
    const b = sealSecret(key, 'whsec_abc', 'int_1');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\./);
    expect(a).not.toContain('whsec_abc');
    expect(openSecret(key, a, 'int_1')).toBe('whsec_abc');
  });

  it('opens only with the same context and the same purpose key', () => {
    const key = deriveSecretKey(serviceKey, 'integration-secret/v1');
    const sealed = sealSecret(key, 'whsec_abc', 'int_1');
    expect(() => openSecret(key, sealed, 'int_2')).toThrow();
    expect(() => openSecret(key, sealed)).toThrow();
    expect(() => openSecret(deriveSecretKey(serviceKey, 'webhook-subscription-secret/v1'), sealed, 'int_1')).toThrow();
    expect(() => openSecret(serviceKey, sealed, 'int_1')).toThrow();
  });

  it('no context (TOTP secrets) works as before', () => {
    const sealed = sealSecret(serviceKey, 'JBSWY3DPEHPK3PXP');
    expect(openSecret(serviceKey, sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('tampering is detected', () => {
    const sealed = sealSecret(serviceKey, 'secret');
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data, 'base64url');
    flipped[0] ^= 1;
    expect(() => openSecret(serviceKey, [v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
  });
});
