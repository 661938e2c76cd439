// The list cursor is opaque and tamper-evident (spec "List orders": a cursor not issued by the API gives 400).
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cursorKey, decodeCursor, encodeCursor } from '../../../src/orders/list-cursor.js';

describe('list cursor', () => {
  const key = cursorKey(randomBytes(32));
  const pos = { createdAt: 1_700_000_000_000, id: 'ord_abc' };

  it('round-trips the position for the same filters', () => {
    expect(decodeCursor(key, encodeCursor(key, pos, 'f1'), 'f1')).toEqual(pos);
  });

  it('refuses another key, other filters, edits and garbage with a 400', () => {
    const cursor = encodeCursor(key, pos, 'f1');
    const [payload, sig] = cursor.split('.');
    const edited = Buffer.from(JSON.stringify({ v: 1, c: pos.createdAt, i: 'ord_zzz', f: 'f1' })).toString('base64url');
    for (const [bad, filters, k] of [
      [cursor, 'f2', key],
      [cursor, 'f1', cursorKey(randomBytes(32))],
      [`${edited}.${sig}`, 'f1', key],
      [`${payload}.`, 'f1', key],
      ['', 'f1', key],
      ['.', 'f1', key],
      ['e30.e30', 'f1', key],
    ] as const)
      expect(() => decodeCursor(k, bad, filters)).toThrow(expect.objectContaining({ kind: 'invalid_input', message: 'Unknown cursor' }));
  });
});
