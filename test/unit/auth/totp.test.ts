// RFC 6238 Appendix B vectors through the project's TOTP setup (src/auth/totp.ts, otplib), plus the ±1 step window.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { matchTotp, totpCode, totpStep, newTotpSecret } from '../../../src/auth/totp.js';

interface Fixture {
  secrets: Record<'SHA1' | 'SHA256' | 'SHA512', { secret_base32: string }>;
  vectors: { time: number; T_hex: string; totp: string; mode: 'SHA1' | 'SHA256' | 'SHA512' }[];
}
const fixture: Fixture = JSON.parse(
  readFileSync(new URL('../../fixtures/totp/rfc6238_appendix_b.json', import.meta.url), 'utf8'),
);

describe('TOTP (spec "Two-factor sign-in": RFC 6238, HMAC-SHA1, 30 s, 6 digits)', () => {
  it('has all 18 Appendix B rows', () => {
    expect(fixture.vectors).toHaveLength(18);
  });

  for (const v of fixture.vectors) {
    it(`${v.mode} at ${v.time}: 8-digit code ${v.totp} and step ${v.T_hex}`, () => {
      const algorithm = v.mode.toLowerCase() as 'sha1' | 'sha256' | 'sha512';
      expect(totpCode(fixture.secrets[v.mode].secret_base32, v.time, { algorithm, digits: 8 })).toBe(v.totp);
      expect(totpStep(v.time * 1000)).toBe(parseInt(v.T_hex, 16));
    });
  }

  for (const v of fixture.vectors.filter((x) => x.mode === 'SHA1')) {
    it(`SHA1 at ${v.time}: the 6-digit code (last six digits) is what the service accepts`, () => {
      const secret = fixture.secrets.SHA1.secret_base32;
      expect(totpCode(secret, v.time)).toBe(v.totp.slice(-6));
      expect(matchTotp(secret, v.totp.slice(-6), v.time * 1000)).toBe(parseInt(v.T_hex, 16));
    });
  }

  it('accepts the step before and after, refuses two steps away', () => {
    const secret = newTotpSecret();
    const now = 1_700_000_015_000; // mid-step
    const step = totpStep(now);
    const at = (s: number) => totpCode(secret, s * 30);
    expect(matchTotp(secret, at(step), now)).toBe(step);
    expect(matchTotp(secret, at(step - 1), now)).toBe(step - 1);
    expect(matchTotp(secret, at(step + 1), now)).toBe(step + 1);
    // A collision across steps is possible in principle (1 in 10^6); the secret is random, so check it is not one.
    if (at(step - 2) !== at(step - 1) && at(step - 2) !== at(step) && at(step - 2) !== at(step + 1))
      expect(matchTotp(secret, at(step - 2), now)).toBeNull();
    if (at(step + 2) !== at(step - 1) && at(step + 2) !== at(step) && at(step + 2) !== at(step + 1))
      expect(matchTotp(secret, at(step + 2), now)).toBeNull();
    expect(matchTotp(secret, 'abcdef', now)).toBeNull();
    expect(matchTotp(secret, '12345', now)).toBeNull();
  });
});
