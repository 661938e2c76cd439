// The run's pure rules (run-decisions.ts): retry or fail, which call answer the run waits for, undo order, undo-call answers.
import { describe, expect, it } from 'vitest';
import { awaitsAnswer, decideFailure, decideUndoAnswer, mayPassLater, restingStatus, undoOrder } from '../../../src/engine/runtime/run-decisions.js';
import { emptyNodeRecord, type NodeRecord } from '../../../src/engine/runtime/node-record.js';
import type { CallRow } from '../../../src/engine/runtime/order-calls.js';

const policy = { attempts: 3, backoffMs: 1_000, factor: 2 };
const rec = (over: Partial<NodeRecord>): NodeRecord => ({ ...emptyNodeRecord('call'), ...over });
const call = (over: Partial<CallRow> = {}): CallRow => ({
  id: 'o:1:call:1:step:2',
  orderId: 'o',
  generation: 1,
  nodeId: 'call',
  run: 1,
  purpose: 'step',
  attempt: 2,
  idempotencyKey: 'oo-x',
  request: { method: 'POST', url: 'https://x.example/a', headers: {}, body: null, timeoutMs: 1_000, signWith: null },
  status: 'pending',
  ...over,
});

describe('decideFailure', () => {
  it('retries with doubling backoff until the policy’s attempts are used', () => {
    expect(decideFailure(policy, 1, false, 100)).toEqual({ retry: true, dueAt: 1_100 });
    expect(decideFailure(policy, 2, false, 100)).toEqual({ retry: true, dueAt: 2_100 });
    expect(decideFailure(policy, 3, false, 100)).toEqual({ retry: false });
  });
  it('a terminal failure never retries; a Retry-After wins over the backoff', () => {
    expect(decideFailure(policy, 1, true, 100)).toEqual({ retry: false });
    expect(decideFailure(policy, 1, false, 100, 30_000)).toEqual({ retry: true, dueAt: 30_100 });
  });
});

describe('awaitsAnswer', () => {
  const running = rec({ status: 'running', runs: 1, attempt: 2 });
  it('the answer of the running attempt of the current node in the same generation is awaited', () => {
    expect(awaitsAnswer(call(), 1, 'call', running)).toBe(true);
  });
  it('anything else is late: another attempt, run or generation, the run moved on or was cancelled, an undo call', () => {
    expect(awaitsAnswer(call({ attempt: 1 }), 1, 'call', running)).toBe(false);
    expect(awaitsAnswer(call({ run: 2 }), 1, 'call', running)).toBe(false);
    expect(awaitsAnswer(call(), 2, 'call', running)).toBe(false);
    expect(awaitsAnswer(call(), 1, 'next', running)).toBe(false);
    expect(awaitsAnswer(call(), 1, null, rec({ status: 'skipped', runs: 1, attempt: 2 }))).toBe(false);
    expect(awaitsAnswer(call({ purpose: 'undo' }), 1, 'call', running)).toBe(false);
    expect(awaitsAnswer(call(), 1, 'call', undefined)).toBe(false);
  });
});

describe('undoOrder', () => {
  it('undoes succeeded steps latest first and leaves the rest', () => {
    const order = undoOrder([
      rec({ nodeId: 'a', status: 'succeeded', doneSeq: 1 }),
      rec({ nodeId: 'b', status: 'failed', doneSeq: null }),
      rec({ nodeId: 'c', status: 'succeeded', doneSeq: 3 }),
      rec({ nodeId: 'd', status: 'rolled_back', doneSeq: 2 }),
    ]);
    expect(order.map((r) => r.nodeId)).toEqual(['c', 'a']);
  });
});

describe('undo call answers', () => {
  it('2xx is done; a refusal fails at once; an outage retries by the policy, then fails', () => {
    expect(decideUndoAnswer(204, false, 1, policy, 0)).toEqual({ kind: 'done' });
    expect(decideUndoAnswer(404, false, 1, policy, 0)).toEqual({ kind: 'failed' });
    expect(decideUndoAnswer(503, false, 1, policy, 0)).toEqual({ kind: 'retry', dueAt: 1_000 });
    expect(decideUndoAnswer(null, false, 2, policy, 0)).toEqual({ kind: 'retry', dueAt: 2_000 });
    expect(decideUndoAnswer(null, false, 3, policy, 0)).toEqual({ kind: 'failed' });
    expect(decideUndoAnswer(null, true, 1, policy, 0)).toEqual({ kind: 'failed' });
  });
  it('only no answer, 408, 429 and 5xx may pass later', () => {
    expect([null, 408, 429, 500, 503].map((s) => mayPassLater(s, false))).toEqual([true, true, true, true, true]);
    expect([400, 404, 409, 422].map((s) => mayPassLater(s, false))).toEqual([false, false, false, false]);
  });
});

describe('restingStatus', () => {
  it('an unfinished order rests waiting while a wait is open, else running (a retry due or a call out)', () => {
    expect(restingStatus(1)).toBe('waiting');
    expect(restingStatus(0)).toBe('running');
  });
});
