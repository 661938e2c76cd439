// Tests for the `logic.loop` node (runtime contract section 5: loops only through a pass counter; spec acceptance loop).
import { describe, expect, it } from 'vitest';
import { logicLoop } from '../../../src/nodes/logic-loop.js';
import { stepContext } from './step-context.js';

const run = (maxPasses: number, used?: number) =>
  logicLoop.run!(stepContext({ maxPasses }, { nodeId: 'loop', passes: used === undefined ? {} : { loop: used } })) as { branch: string; output: unknown };

describe('logic.loop', () => {
  it('contract 5: next while the pass count is below maxPasses, exhausted once it reaches it', () => {
    expect(run(10).branch).toBe('next');
    expect(run(10, 9)).toMatchObject({ branch: 'next', output: { pass: 10, maxPasses: 10 } });
    expect(run(10, 10)).toMatchObject({ branch: 'exhausted', output: { passes: 10, maxPasses: 10 } });
  });

  it('contract 5: counters are per node (another loop\'s passes do not count)', () => {
    const result = logicLoop.run!(stepContext({ maxPasses: 1 }, { nodeId: 'loop', passes: { other: 5 } })) as { branch: string };
    expect(result.branch).toBe('next');
  });

  it('contract 5: maxPasses is a required whole number from 1', () => {
    expect(logicLoop.params.safeParse({}).success).toBe(false);
    expect(logicLoop.params.safeParse({ maxPasses: 0 }).success).toBe(false);
    expect(logicLoop.params.safeParse({ maxPasses: 2.5 }).success).toBe(false);
    expect(logicLoop.params.parse({ maxPasses: 10 })).toEqual({ maxPasses: 10 });
  });

  it('compiler: the loop counts a pass on next and has branches next/exhausted', () => {
    expect(logicLoop.passBranch).toBe('next');
    expect(logicLoop.branches({ maxPasses: 1 })).toEqual(['next', 'exhausted']);
  });
});
