// Tests for the node catalogue: the single registry of node types (runtime contract section 5).
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { testStep } from './test-catalogue.js';

describe('catalogue', () => {
  it('contract 5: every generic node type the contract names exists', () => {
    const catalogue = createCatalogue(genericNodeTypes);
    for (const type of ['trigger.api', 'trigger.webhook', 'human.approval', 'wait.event', 'wait.delay', 'logic.branch', 'logic.loop', 'end']) {
      expect(catalogue.has(type), type).toBe(true);
      expect(catalogue.get(type)!.type).toBe(type);
    }
    expect(catalogue.get('logic.continue')!.kind).toBe('continue');
    expect(catalogue.get('nope')).toBeUndefined();
  });

  it('catalogue: list() returns the types in registration order', () => {
    const catalogue = createCatalogue([...genericNodeTypes, testStep]);
    expect(catalogue.list().map((d) => d.type)).toEqual([...genericNodeTypes.map((d) => d.type), 'test.step']);
  });

  it('catalogue: registering a type twice is refused', () => {
    expect(() => createCatalogue([testStep, testStep])).toThrow(/registered twice/);
  });

  it('contract 5: each generic type has a default branch among its branches (or none), and only End/continue have no branches', () => {
    const sample: Record<string, unknown> = {
      'wait.delay': { duration: '1h' },
      'logic.branch': { when: { path: 'vars.x', op: 'exists' } },
      'logic.loop': { maxPasses: 3 },
      'http.call': { url: 'https://erp.example.com/orders' },
      end: { outcome: 'completed' },
    };
    for (const def of genericNodeTypes) {
      const params = def.params.parse(sample[def.type] ?? {});
      const branches = def.branches(params);
      expect(branches.length === 0, def.type).toBe(def.kind === 'end' || def.kind === 'continue');
      if (def.defaultBranch !== null) expect(branches, def.type).toContain(def.defaultBranch);
    }
  });
});
