// Tests for the node catalogue: the single registry of node types (runtime contract section 5).
import { describe, expect, it } from 'vitest';
import { createCatalogue } from '../../../src/engine/catalogue.js';
import { genericNodeTypes } from '../../../src/nodes/generic-node-types.js';
import { testStep } from './test-catalogue.js';
import { builtinNodeTypes } from '../../../src/nodes/builtin-node-types.js';
import { validateGraph } from '../../../src/engine/validator.js';
import { onFailureOf } from '../../../src/engine/step-policy.js';

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

  it('contract 16: every step type takes onFailure ("rollback" by default, or "hold"); other kinds and other values are refused', () => {
    const catalogue = createCatalogue([...builtinNodeTypes, testStep]);
    const sample: Record<string, Record<string, unknown>> = { 'http.call': { url: 'https://erp.example.com/orders' } };
    const steps = catalogue.list().filter((d) => d.kind === 'step');
    expect(steps.length).toBeGreaterThan(20);
    for (const def of catalogue.list()) {
      const base = sample[def.type] ?? {};
      const held = def.params.safeParse({ ...base, onFailure: 'hold' });
      if (def.kind !== 'step') {
        expect(held.success, def.type).toBe(false);
        continue;
      }
      // Only the params without onFailure parse for types whose own params are all required (they take the sample or defaults).
      const plain = def.params.safeParse(base);
      if (!plain.success) continue;
      expect(onFailureOf(plain.data), def.type).toBe('rollback');
      expect(held.success && onFailureOf(held.data), def.type).toBe('hold');
      expect(def.params.safeParse({ ...base, onFailure: 'ignore' }).success, def.type).toBe(false);
    }
    // The original definitions are left as they were: the catalogue adds the param to its own copies.
    expect(testStep.params.safeParse({ onFailure: 'hold' }).success).toBe(false);
  });

  it('contract 16: the validator names a bad onFailure on the node', () => {
    const catalogue = createCatalogue([...genericNodeTypes, testStep]);
    const graph: { nodes: { id: string; type: string; params?: Record<string, unknown> }[]; edges: { from: string; to: string }[] } = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'a', type: 'test.step', params: { onFailure: 'retry-forever' } },
        { id: 'done', type: 'end', params: { outcome: 'completed', onFailure: 'hold' } },
      ],
      edges: [{ from: 'start', to: 'a' }, { from: 'a', to: 'done' }],
    };
    const problems = validateGraph(graph, catalogue);
    expect(problems).toContainEqual({ nodeId: 'a', message: expect.stringMatching(/^Node "a" \(test\.step\): param "onFailure": .*"rollback".*"hold"/) });
    expect(problems.some((p) => p.nodeId === 'done')).toBe(true);
    graph.nodes[1]!.params = { onFailure: 'hold' };
    graph.nodes[2]!.params = { outcome: 'completed' };
    expect(validateGraph(graph, catalogue)).toEqual([]);
  });
});
