// Password rules (spec "Passwords"): 10-256 characters, not common, not containing the email or its local part.
import { isCommonPassword } from './common-passwords.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/** Returns the first broken rule as a sentence for the person, or null when the password is acceptable. */
export function passwordProblem(password: string, email: string | null): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `The password must have at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `The password must have at most ${PASSWORD_MAX} characters`;
  if (isCommonPassword(password)) return 'That password is too common: choose another';
  if (email) {
    const lower = password.toLowerCase();
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0] ?? '';
    if (lower.includes(address)) return 'The password must not contain your email address';
    if (local.length >= 4 && lower.includes(local)) return 'The password must not contain the part of your email before @';
  }
  return null;
}
