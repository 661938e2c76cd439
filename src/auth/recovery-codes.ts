// Recovery codes `xxxxx-xxxxx`: 10 per set, shown once, stored as SHA-256, deleted on use.
import { randomInt } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { newId, sha256 } from './secret-tokens.js';

export const RECOVERY_CODES_PER_SET = 10;
/** Lower-case letters and digits without look-alikes (0/o, 1/l/i). */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const FORMAT = /^[a-z0-9]{5}-[a-z0-9]{5}$/;

function group(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** Normalises what a person typed (case, spaces); null when it cannot be a recovery code. */
export function normaliseRecoveryCode(input: string): string | null {
  const s = input.trim().toLowerCase().replace(/\s+/g, '');
  return FORMAT.test(s) ? s : null;
}

/** Replaces the person's codes with a new set and returns the plain codes (the only time they exist). */
export async function replaceRecoveryCodes(q: Queryable, personId: string, now: number): Promise<string[]> {
  await q.query('DELETE FROM recovery_codes WHERE person_id = $1', [personId]);
  const codes: string[] = [];
  while (codes.length < RECOVERY_CODES_PER_SET) {
    const code = `${group()}-${group()}`;
    if (!codes.includes(code)) codes.push(code);
  }
  for (const code of codes)
    await q.query('INSERT INTO recovery_codes (id, person_id, code_hash, created_at) VALUES ($1, $2, $3, $4)', [
      newId('rc'),
      personId,
      sha256(code),
      now,
    ]);
  return codes;
}

/** Uses a code once: true when it existed (it is deleted in the same statement, so it cannot be used twice). */
export async function consumeRecoveryCode(q: Queryable, personId: string, input: string): Promise<boolean> {
  const code = normaliseRecoveryCode(input);
  if (!code) return false;
  const { rowCount } = await q.query('DELETE FROM recovery_codes WHERE person_id = $1 AND code_hash = $2', [personId, sha256(code)]);
  return (rowCount ?? 0) > 0;
}

export async function countRecoveryCodes(q: Queryable, personId: string): Promise<number> {
  const { rows } = await q.query<{ n: string }>('SELECT count(*) AS n FROM recovery_codes WHERE person_id = $1', [personId]);
  return Number(rows[0].n);
}
