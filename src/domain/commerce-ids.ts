// Ids and codes for commerce records: a prefix plus random hex, unguessable and URL-safe.
import { randomBytes } from 'node:crypto';

/** `<prefix>_` + 20 hex characters, e.g. `auth_3f9c…`. */
export function newCommerceId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

/** Characters of human-facing codes: no 0/O or 1/I/L to misread. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A random code of `groups` groups of `size` characters joined by `-`, e.g. `K7QM-2XWD-9PRT`. */
export function newHumanCode(groups = 3, size = 4): string {
  const bytes = randomBytes(groups * size);
  const chars = [...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]);
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) parts.push(chars.slice(g * size, (g + 1) * size).join(''));
  return parts.join('-');
}
