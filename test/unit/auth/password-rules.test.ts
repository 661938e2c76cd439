// Password rules (spec "Passwords") and PBKDF2-SHA256 hashes with their own iteration count.
import { describe, expect, it } from 'vitest';
import { passwordProblem } from '../../../src/auth/password-rules.js';
import { isCommonPassword } from '../../../src/auth/common-passwords.js';
import { hashPassword, verifyPassword } from '../../../src/auth/password-hash.js';

describe('password rules', () => {
  it('10 to 256 characters', () => {
    expect(passwordProblem('Ab3$efg-h', null)).toMatch(/at least 10/);
    expect(passwordProblem('Ab3$efg-hi', null)).toBeNull();
    expect(passwordProblem('x'.repeat(256), null)).toBeNull();
    expect(passwordProblem('x'.repeat(257), null)).toMatch(/at most 256/);
  });

  it('refuses common passwords from the shipped list, case-insensitively', () => {
    expect(isCommonPassword('qwertyuiop')).toBe(true);
    expect(isCommonPassword('Password123')).toBe(true);
    expect(passwordProblem('1234567890', null)).toMatch(/too common/);
    expect(passwordProblem('BASKETBALL', null)).toMatch(/too common/);
    expect(passwordProblem('violet-harbour-tram-91', null)).toBeNull();
  });

  it('refuses the email or its local part of 4+ characters', () => {
    expect(passwordProblem('xx-jane.doe@example.com-xx', 'jane.doe@example.com')).toMatch(/email/);
    expect(passwordProblem('my-JANE.DOE-secret-1', 'jane.doe@example.com')).toMatch(/before @/);
    // A local part of 3 characters may appear.
    expect(passwordProblem('bobcat-river-42-x', 'bob@example.com')).toBeNull();
  });
});

describe('password hashes', () => {
  it('PBKDF2-SHA256, salted, iterations stored with the hash; old counts still verify', async () => {
    const a = await hashPassword('violet-harbour-tram-91', 1000);
    const b = await hashPassword('violet-harbour-tram-91', 2000);
    expect(a).toMatch(/^pbkdf2-sha256\$1000\$/);
    expect(b).toMatch(/^pbkdf2-sha256\$2000\$/);
    expect(a.split('$')[2]).not.toBe(b.split('$')[2]);
    expect(await verifyPassword('violet-harbour-tram-91', a)).toBe(true);
    expect(await verifyPassword('violet-harbour-tram-91', b)).toBe(true);
    expect(await verifyPassword('violet-harbour-tram-92', a)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
    expect(await verifyPassword('x', null)).toBe(false);
  });
});
