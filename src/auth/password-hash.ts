// Salted PBKDF2-SHA256 password hashes; each hash carries its own iteration count so old hashes keep verifying.
import { pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const pbkdf2Async = promisify(pbkdf2);
const KEY_BYTES = 32;

/** Hashes a password as `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string, iterations: number): Promise<string> {
  const salt = randomBytes(16);
  const hash = await pbkdf2Async(password.normalize('NFKC'), salt, iterations, KEY_BYTES, 'sha256');
  return `pbkdf2-sha256$${iterations}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Verifies a password against a stored hash in constant time; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, iter, saltB64, hashB64] = stored.split('$');
  const iterations = Number(iter);
  if (scheme !== 'pbkdf2-sha256' || !Number.isInteger(iterations) || iterations < 1 || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await pbkdf2Async(password.normalize('NFKC'), Buffer.from(saltB64, 'base64'), iterations, expected.length, 'sha256');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
