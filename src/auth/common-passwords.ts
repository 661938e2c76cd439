// The shipped list of common passwords (src/auth/data/common-passwords.txt, see data/SOURCES.md), loaded once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const listFile = fileURLToPath(new URL('./data/common-passwords.txt', import.meta.url));
let list: Set<string> | null = null;

/** True when the password (compared case-insensitively) is on the common-password list. */
export function isCommonPassword(password: string): boolean {
  list ??= new Set(
    readFileSync(listFile, 'utf8')
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean),
  );
  return list.has(password.toLowerCase());
}
