// Generated temporary passwords: 20 characters from an alphabet without look-alikes.
import { randomInt } from 'node:crypto';

export const TEMPORARY_PASSWORD_LENGTH = 20;
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';

export function temporaryPassword(): string {
  let s = '';
  for (let i = 0; i < TEMPORARY_PASSWORD_LENGTH; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}
