// Idempotency-Key rules and the body fingerprint (spec "Start an order": 255 characters, property order ignored).
import { describe, expect, it } from 'vitest';
import { fingerprint, readIdempotencyKey } from '../../../src/orders/idempotency.js';
import { canonicalJson } from '../../../src/orders/canonical-json.js';
import { approvalActor } from '../../../src/orders/order-commands.js';

describe('idempotency', () => {
  it('a key is 1 to 255 characters; absent is null', () => {
    expect(readIdempotencyKey(undefined)).toBeNull();
    expect(readIdempotencyKey('k'.repeat(255))).toBe('k'.repeat(255));
    expect(() => readIdempotencyKey('k'.repeat(256))).toThrow(expect.objectContaining({ kind: 'invalid_input' }));
    expect(() => readIdempotencyKey('')).toThrow(expect.objectContaining({ kind: 'invalid_input' }));
  });

  it('the fingerprint ignores property order at every depth, but not array order or values', () => {
    const a = { flowId: 'f', input: { model: 'b2c', lines: [{ sku: 'A', qty: 1 }, { sku: 'B', qty: 2 }] }, vars: { x: { y: 1, z: 2 } } };
    const b = { vars: { x: { z: 2, y: 1 } }, input: { lines: [{ qty: 1, sku: 'A' }, { qty: 2, sku: 'B' }], model: 'b2c' }, flowId: 'f' };
    expect(fingerprint(a)).toBe(fingerprint(b));
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint({ ...a, input: { ...a.input, lines: [...a.input.lines].reverse() } })).not.toBe(fingerprint(a));
    expect(fingerprint({ ...a, vars: { x: { y: 1, z: 3 } } })).not.toBe(fingerprint(a));
    expect(canonicalJson({ b: 1, a: undefined, c: [undefined] })).toBe('{"b":1,"c":[null]}');
  });
});

describe('approval actor (spec "Decide an approval")', () => {
  it('a person or token decides as itself; only the workspace password may name `by`', () => {
    expect(approvalActor({ kind: 'workspace', id: null, role: 'operator', actor: 'api', via: 'bearer' }, undefined)).toBe('api');
    expect(approvalActor({ kind: 'workspace', id: null, role: 'operator', actor: 'api', via: 'bearer' }, 'Dana')).toBe('Dana');
    expect(approvalActor({ kind: 'workspace', id: null, role: 'operator', actor: 'operator', via: 'session' }, undefined)).toBe('operator');
    expect(approvalActor({ kind: 'person', id: 'p1', role: 'approver', actor: 'ann@example.com', via: 'session' }, 'Dana')).toBe('ann@example.com');
    expect(approvalActor({ kind: 'token', id: 't1', role: 'approver', actor: 'token:bot', via: 'bearer' }, 'Dana')).toBe('token:bot');
  });
});
