// Tests for the `logic.branch` node and its condition language (runtime contract section 5: condition on vars/order).
import { describe, expect, it } from 'vitest';
import { checkCondition, evaluateCondition, logicBranch, type Condition } from '../../../src/nodes/logic-branch.js';
import { stepContext, testOrder } from './step-context.js';

const scope = {
  order: testOrder({ total: 150000, channel: 'pos', meta: { simulate: ['high_risk'] } }),
  vars: { fraud: { score: 95, level: 'high' }, tags: ['vip'], none: null, zero: 0 },
};
const holds = (c: Condition) => evaluateCondition(c, scope);

describe('logic.branch', () => {
  it('contract 5: eq/ne compare JSON values deeply', () => {
    expect(holds({ path: 'order.channel', op: 'eq', value: 'pos' })).toBe(true);
    expect(holds({ path: 'vars.tags', op: 'eq', value: ['vip'] })).toBe(true);
    expect(holds({ path: 'vars.fraud', op: 'eq', value: { level: 'high', score: 95 } })).toBe(true);
    expect(holds({ path: 'order.channel', op: 'ne', value: 'web' })).toBe(true);
    expect(holds({ path: 'vars.missing', op: 'eq', value: null })).toBe(true);
    expect(holds({ path: 'vars.missing', op: 'eq', value: 0 })).toBe(false);
  });

  it('contract 5: gt/gte/lt/lte compare numbers (minor units) or strings, and are false across types', () => {
    expect(holds({ path: 'order.total', op: 'gt', value: 100000 })).toBe(true);
    expect(holds({ path: 'order.total', op: 'gte', value: 150000 })).toBe(true);
    expect(holds({ path: 'order.total', op: 'lt', value: 150000 })).toBe(false);
    expect(holds({ path: 'vars.fraud.score', op: 'lte', value: 95 })).toBe(true);
    expect(holds({ path: 'vars.fraud.level', op: 'gt', value: 'a' })).toBe(true);
    expect(holds({ path: 'vars.fraud.level', op: 'gt', value: 1 })).toBe(false);
    expect(holds({ path: 'vars.missing', op: 'lt', value: 1 })).toBe(false);
  });

  it('contract 5: in tests membership; exists tests presence (null is absent; value false inverts)', () => {
    expect(holds({ path: 'order.channel', op: 'in', value: ['pos', 'web'] })).toBe(true);
    expect(holds({ path: 'order.channel', op: 'in', value: ['edi'] })).toBe(false);
    expect(holds({ path: 'vars.zero', op: 'exists' })).toBe(true);
    expect(holds({ path: 'vars.none', op: 'exists' })).toBe(false);
    expect(holds({ path: 'vars.missing', op: 'exists', value: false })).toBe(true);
    expect(holds({ path: 'order.meta.simulate.0', op: 'eq', value: 'high_risk' })).toBe(true);
  });

  it('contract 5: all, any and not combine conditions', () => {
    const big = { path: 'order.total', op: 'gt', value: 100000 } as const;
    const web = { path: 'order.channel', op: 'eq', value: 'web' } as const;
    expect(holds({ all: [big, { not: web }] })).toBe(true);
    expect(holds({ all: [big, web] })).toBe(false);
    expect(holds({ any: [web, big] })).toBe(true);
    expect(holds({ any: [web, { not: big }] })).toBe(false);
  });

  it('contract 5: run takes branch true or false with output { result }', () => {
    const params = logicBranch.params.parse({ when: { path: 'vars.fraud.score', op: 'gte', value: 80 } });
    expect(logicBranch.run!(stepContext(params, { vars: { fraud: { score: 90 } } }))).toMatchObject({ branch: 'true', output: { result: true } });
    expect(logicBranch.run!(stepContext(params, { vars: { fraud: { score: 10 } } }))).toMatchObject({ branch: 'false', output: { result: false } });
    expect(logicBranch.branches(params)).toEqual(['true', 'false']);
  });

  it('contract 5: a malformed condition is refused with the path of the mistake', () => {
    const issues = (value: unknown) => checkCondition(value).map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(issues({ path: 'total', op: 'gt', value: 1 })).toEqual([expect.stringMatching(/^path: Expected a path starting with "order\." or "vars\."/)]);
    expect(issues({ any: [{ path: 'vars.x', op: 'in', value: 3 }] })).toEqual([expect.stringMatching(/^any\.0\.value: "in" needs a list/)]);
    expect(issues({ all: [] })).toEqual([expect.stringMatching(/^all: "all" needs a non-empty list/)]);
    expect(issues({ path: 'vars.x', op: 'gt' })).toEqual([expect.stringMatching(/^value: "gt" needs a number or a string/)]);
    expect(issues({ path: 'vars.x', op: 'eq' })).toEqual([expect.stringMatching(/^value: "eq" needs a value/)]);
    expect(issues({ not: { path: 'vars.x', op: 'exists' }, extra: 1 })).toEqual([expect.stringMatching(/"not" condition has no other keys/)]);
    expect(issues('vars.x > 1')).toEqual([expect.stringMatching(/Expected a condition object/)]);
    expect(logicBranch.params.safeParse({}).success).toBe(false);
  });

  it('contract 5: conditions nest at most 16 levels (hostile input cannot recurse deeply)', () => {
    let deep: unknown = { path: 'vars.x', op: 'exists' };
    for (let i = 0; i < 17; i++) deep = { not: deep };
    expect(checkCondition(deep)).toEqual([expect.objectContaining({ message: expect.stringMatching(/at most 16 levels/) })]);
  });
});
