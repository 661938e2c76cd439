// Hostile chat text (security review 2, M-1): A2A chat messages of 4,000 adversarial characters, built from the
// grammar's keywords and the runs regular expressions backtrack on, are each answered with a task while the event
// loop never stalls (before the fix one such message blocked the process for 6-11 s).
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from '../../integration/a2a/a2a-support.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { SIZES } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { HOSTILE_STRINGS } from './schema-arbitrary.js';

const seed = resilienceSeed('chat regex budgets');
/** Far below the seconds one backtracking message cost, far above a normal answer (tens of ms). */
const MAX_LOOP_DELAY_MS = 2_000;
const SIZE = 4_000;

const PREFIXES = ['add approval tpl-storefront-order', 'add an approval before capture', 'remove ', 'send rejected ', 'how many orders ', 'orders between ', 'since ', 'show flow ', 'mark ord_1 ', ''];
const BODIES = [' in' + ' '.repeat(650), ' ', ' in', ' in the', ' flow', ' to x', ' 3 d', ' monday', '1', '1,', 'a', 'x1', 'a-', 'A-', 'a.', '$', '-', 'é', '🙂', ...HOSTILE_STRINGS.filter((s) => s.length > 0)];
const SUFFIXES = ['!', '_', ' flow!', ' in the storefront flow'];

/** Lone surrogates and NUL dropped: the A2A envelope refuses them (-32600) before any grammar runs. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\u0000/g, '');

/** One message: a prefix, a body repeated, a suffix, 4,000 characters in all. */
const hostileText = fc.tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...BODIES), fc.constantFrom(...SUFFIXES)).map(([prefix, body, suffix]) => {
  const room = SIZE - prefix.length - suffix.length;
  return wellFormed(prefix + body.repeat(Math.ceil(room / body.length)).slice(0, room) + suffix);
});

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ redis: false });
});
afterAll(async () => {
  await t?.close();
});

describe(`hostile chat text (seed ${seed})`, () => {
  it('each 4,000-character message gets a task and the event loop is never blocked for long', async () => {
    const texts = ['add approval tpl-storefront-order' + (' in' + ' '.repeat(650)).repeat(6) + '!', ...fc.sample(hostileText, { seed, numRuns: SIZES.fuzzRuns })];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const outcomes = new Set<string>();
    try {
      for (const text of texts) {
        const res = await rpc(t, 'SendMessage', { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }] } }, { version: '1.0' });
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        expect(res.body.error, res.text.slice(0, 300)).toBeUndefined();
        outcomes.add(res.body.result.task.status.state);
      }
    } finally {
      loop.disable();
    }
    expect(loop.max / 1e6).toBeLessThan(MAX_LOOP_DELAY_MS);
    expect([...outcomes].every((s) => /^TASK_STATE_(COMPLETED|INPUT_REQUIRED|FAILED|REJECTED)$/.test(s)), [...outcomes].join()).toBe(true);
  });
});
