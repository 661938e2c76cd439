// RFC 6238 TOTP through otplib: HMAC-SHA1, 30-second steps, 6 digits, the step before and after also accepted.
import { generateSecret, generateSync, generateURI } from 'otplib';
import { safeEqual } from './constant-time.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;

export interface TotpOptions {
  /** Defaults follow authenticator apps (spec): sha1 and 6 digits. Other values exist for the RFC vectors. */
  algorithm?: 'sha1' | 'sha256' | 'sha512';
  digits?: number;
}

/** A new random Base32 secret of 20 bytes (160 bits, the RFC 4226 recommendation). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The time step counter of an instant: floor(seconds / 30). */
export function totpStep(epochMs: number): number {
  return Math.floor(epochMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The code of the step that contains `epochSeconds`. */
export function totpCode(secretBase32: string, epochSeconds: number, options: TotpOptions = {}): string {
  return generateSync({
    secret: secretBase32,
    epoch: epochSeconds,
    period: TOTP_PERIOD_SECONDS,
    algorithm: options.algorithm ?? 'sha1',
    digits: options.digits ?? TOTP_DIGITS,
  });
}

/**
 * The time step whose code `code` is, looking at the current step and one either side,
 * or null. Whether that step was already used is the caller's check (each step works once).
 */
export function matchTotp(secretBase32: string, code: string, nowMs: number): number | null {
  const clean = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(clean)) return null;
  const current = totpStep(nowMs);
  let matched: number | null = null;
  // Every candidate is computed and compared so the timing does not reveal which step matched.
  for (const step of [current - 1, current, current + 1]) {
    if (safeEqual(totpCode(secretBase32, step * TOTP_PERIOD_SECONDS), clean) && matched === null) matched = step;
  }
  return matched;
}

/** The `otpauth://` URI an authenticator app scans. */
export function totpUri(secretBase32: string, label: string, issuer: string): string {
  return generateURI({ issuer, label, secret: secretBase32, algorithm: 'sha1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}
