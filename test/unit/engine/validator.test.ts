// Tests for the flow validator: one per rule of runtime contract section 5 and the node catalogue.
import { describe, expect, it } from 'vitest';
import type { Graph } from '../../../src/engine/graph.js';
import { validateGraph } from '../../../src/engine/validator.js';
import { linearGraph, testCatalogue } from './test-catalogue.js';

const check = (graph: unknown) => validateGraph(graph, testCatalogue);
const one = (nodeId: string | undefined, pattern: RegExp) => [
  nodeId === undefined ? { message: expect.stringMatching(pattern) } : { nodeId, message: expect.stringMatching(pattern) },
];

/** trigger → approval → (approved: done, rejected: declined, escalated: declined) */
function approvalGraph(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook' },
      { id: 'approve', type: 'human.approval', params: { assignee: 'trust' } },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
      { id: 'declined', type: 'end', params: { outcome: 'declined', reason: 'Refused' } },
    ],
    edges: [
      { from: 'start', to: 'approve' },
      { from: 'approve', to: 'done', branch: 'approved' },
      { from: 'approve', to: 'declined', branch: 'rejected' },
      { from: 'approve', to: 'declined', branch: 'escalated' },
    ],
  };
}

/** trigger → loop -next→ wait -received/timeout→ loop; loop -exhausted→ end */
function loopGraph(): Graph {
  return {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'loop', type: 'logic.loop', params: { maxPasses: 3 } },
      { id: 'wait', type: 'wait.event', params: { event: 'seller.responded', timeout: '2d' } },
      { id: 'fail', type: 'end', params: { outcome: 'failed', reason: 'Sellers did not answer' } },
    ],
    edges: [
      { from: 'start', to: 'loop' },
      { from: 'loop', to: 'wait' },
      { from: 'wait', to: 'loop', branch: 'received' },
      { from: 'wait', to: 'loop', branch: 'timeout' },
      { from: 'loop', to: 'fail', branch: 'exhausted' },
    ],
  };
}

describe('validator', () => {
  it('contract 5: valid graphs (linear, approval, loop through logic.loop) have no problems', () => {
    expect(check(linearGraph())).toEqual([]);
    expect(check(approvalGraph())).toEqual([]);
    expect(check(loopGraph())).toEqual([]);
  });

  it('contract 5: a graph that is not { nodes, edges } is reported', () => {
    expect(check(null)).toEqual(one(undefined, /^Graph: /));
    expect(check({ nodes: [] })).toEqual(one(undefined, /^Graph: edges: /));
  });

  it('contract 5: node ids must match [a-z][a-z0-9_]*; edges to the malformed node are not reported again', () => {
    const graph = linearGraph();
    graph.nodes[1]!.id = 'Step-A';
    graph.edges = [{ from: 'start', to: 'Step-A' }, { from: 'Step-A', to: 'done' }];
    expect(check(graph)).toEqual(one('Step-A', /Node "Step-A": id: Node ids start with a lowercase letter/));
  });

  it('every problem in one pass: a malformed node does not hide the problems of the others', () => {
    const graph = approvalGraph();
    graph.nodes.push({ id: 'Bad Id', type: 'test.step' }, { id: 'mystery', type: 'no.such.type' });
    graph.edges = graph.edges.filter((e) => e.branch !== 'escalated'); // leaves a branch unwired
    graph.edges.push({ from: 'done', to: 'Bad Id' }, { from: 'approve', to: 'mystery', branch: 'escalated' }, { from: 'approve', to: 'ghost', branch: 'approved' });
    const messages = check(graph).map((p) => p.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Node "Bad Id": id: Node ids start/),
        'Node "mystery" has unknown type "no.such.type"',
        expect.stringMatching(/points to unknown node "ghost"/),
      ]),
    );
    // Nothing about the malformed node twice, and it is no reason for "no trigger" or unreachable nodes.
    expect(messages.filter((m) => m.includes('Bad Id'))).toHaveLength(1);
    expect(messages.some((m) => /no trigger|cannot be reached/.test(m))).toBe(false);
  });

  it('a malformed trigger still counts as the trigger, and nodes after it are reachable through it', () => {
    const graph = linearGraph();
    graph.nodes[0]!.id = 'Start!';
    graph.edges[0]!.from = 'Start!';
    const messages = check(graph).map((p) => p.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Node "Start!": id: /);
  });

  it('contract 5: node ids are unique', () => {
    const graph = linearGraph();
    graph.nodes.push({ id: 'a', type: 'test.step' });
    expect(check(graph)).toEqual(one('a', /Node id "a" is used by more than one node/));
  });

  it('catalogue: an unknown node type is reported', () => {
    const graph = linearGraph();
    graph.nodes[1]!.type = 'commerce.teleport';
    expect(check(graph)).toEqual(one('a', /Node "a" has unknown type "commerce.teleport"/));
  });

  it('catalogue: params are validated per type with the param path in the message', () => {
    const graph = approvalGraph();
    graph.nodes[1]!.params = { timeout: 'soon' };
    expect(check(graph)).toEqual(one('approve', /Node "approve" \(human.approval\): param "timeout": Expected a duration/));
  });

  it('catalogue: nested param paths are named (logic.branch condition)', () => {
    const graph: Graph = {
      nodes: [
        { id: 'start', type: 'trigger.api' },
        { id: 'check', type: 'logic.branch', params: { when: { all: [{ path: 'vars.x', op: 'bigger', value: 1 }] } } },
        { id: 'yes', type: 'end', params: { outcome: 'completed' } },
        { id: 'no', type: 'end', params: { outcome: 'declined' } },
      ],
      edges: [
        { from: 'start', to: 'check' },
        { from: 'check', to: 'yes', branch: 'true' },
        { from: 'check', to: 'no', branch: 'false' },
      ],
    };
    expect(check(graph)).toEqual(one('check', /param "when\.all\.0\.op": Expected an operator/));
  });

  it('catalogue: unknown param keys are refused (typos do not silently fall back to defaults)', () => {
    const graph = approvalGraph();
    graph.nodes[1]!.params = { timout: '1d' };
    expect(check(graph)).toEqual(one('approve', /Node "approve" \(human.approval\): params: .*timout/));
  });

  it('contract 5: a flow without a trigger is reported', () => {
    const graph = linearGraph();
    graph.nodes[0]!.type = 'test.step';
    expect(check(graph)).toEqual(one(undefined, /no trigger node.*trigger\.api, trigger\.webhook/));
  });

  it('contract 5: a flow with two triggers is reported at the second', () => {
    const graph = linearGraph();
    graph.nodes.push({ id: 'start2', type: 'trigger.webhook' });
    graph.edges.push({ from: 'start2', to: 'a' });
    expect(check(graph)).toEqual(one('start2', /Node "start2" is a second trigger; a flow has exactly one trigger/));
  });

  it('contract 5: an edge from an unknown node is reported', () => {
    const graph = linearGraph();
    graph.edges.push({ from: 'ghost', to: 'done' });
    expect(check(graph)).toEqual(one(undefined, /Edge #3 \(ghost → done\) starts at unknown node "ghost"/));
  });

  it('contract 5: an edge to an unknown node is reported at its from-node', () => {
    const graph = linearGraph();
    graph.edges.push({ from: 'a', to: 'ghost', branch: 'failed' });
    expect(check(graph)).toEqual(one('a', /Edge #3 \(a → ghost\) points to unknown node "ghost"/));
  });

  it('contract 5: an edge branch must be a branch of its from-node', () => {
    const graph = linearGraph();
    graph.edges[1]!.branch = 'maybe';
    expect(check(graph)).toEqual([
      { nodeId: 'a', message: expect.stringMatching(/node "a" \(test.step\) has no branch "maybe" \(its branches: ok, failed\)/) },
      { nodeId: 'a', message: expect.stringMatching(/Branch "ok" of node "a" .* is not connected/) },
    ]);
  });

  it('contract 5: an edge without branch means the default branch (ok/next)', () => {
    const graph = linearGraph();
    graph.edges[1]!.branch = 'ok';
    expect(check(graph)).toEqual([]);
    graph.edges.push({ from: 'a', to: 'done' }); // a second default-branch edge is a second `ok`
    expect(check(graph)).toEqual(one('a', /Branch "ok" of node "a" is connected twice/));
  });

  it('contract 5: an edge without branch from a node with no default branch is reported', () => {
    const graph = approvalGraph();
    delete graph.edges[1]!.branch;
    expect(check(graph)).toEqual([
      { nodeId: 'approve', message: expect.stringMatching(/needs a branch: approve has no default branch \(its branches: approved, rejected, escalated\)/) },
      { nodeId: 'approve', message: expect.stringMatching(/Branch "approved" of node "approve" \(human.approval\) is not connected/) },
    ]);
  });

  it('contract 5: at most one edge per (from, branch)', () => {
    const graph = approvalGraph();
    graph.edges.push({ from: 'approve', to: 'done', branch: 'rejected' });
    expect(check(graph)).toEqual(one('approve', /Branch "rejected" of node "approve" is connected twice \(to "declined" and "done"\)/));
  });

  it('contract 5: every non-optional branch is wired (approval escalated)', () => {
    const graph = approvalGraph();
    graph.edges.pop();
    expect(check(graph)).toEqual(one('approve', /Branch "escalated" of node "approve" \(human.approval\) is not connected to any node/));
  });

  it('catalogue: an optional branch (a step\'s failed) may stay unwired', () => {
    expect(check(linearGraph())).toEqual([]); // test.step's `failed` is optional and unwired here
  });

  it('catalogue: branches that depend on params are checked against the parsed params', () => {
    const graph = linearGraph();
    graph.nodes[1] = { id: 'a', type: 'test.choice', params: { options: ['x', 'y'] } };
    graph.edges[1] = { from: 'a', to: 'done', branch: 'x' };
    expect(check(graph)).toEqual(one('a', /Branch "y" of node "a" \(test.choice\) is not connected/));
  });

  it('contract 5: End nodes have no outgoing edges', () => {
    const graph = linearGraph();
    graph.nodes.push({ id: 'after', type: 'end', params: { outcome: 'completed' } });
    graph.edges.push({ from: 'done', to: 'after' });
    expect(check(graph)).toEqual(one('done', /Node "done" is an End node and cannot have outgoing edges/));
  });

  it('contract 5: continue-as-new nodes have no outgoing edges', () => {
    const graph = linearGraph();
    graph.nodes[2] = { id: 'done', type: 'logic.continue' };
    graph.nodes.push({ id: 'after', type: 'end', params: { outcome: 'completed' } });
    graph.edges.push({ from: 'done', to: 'after' });
    expect(check(graph)).toEqual(one('done', /Node "done" is a continue-as-new node and cannot have outgoing edges/));
  });

  it('contract 5: every node is reachable from the trigger', () => {
    const graph = linearGraph();
    graph.nodes.push({ id: 'island', type: 'end', params: { outcome: 'completed' } });
    expect(check(graph)).toEqual(one('island', /Node "island" cannot be reached from the trigger "start"/));
  });

  it('contract 5: nothing leads back into the trigger', () => {
    const graph = linearGraph();
    graph.edges.push({ from: 'a', to: 'start', branch: 'failed' });
    expect(check(graph)).toEqual([
      { nodeId: 'a', message: expect.stringMatching(/Edge #3 \(a → start\) leads back into the trigger/) },
      { nodeId: 'start', message: expect.stringMatching(/Nodes "start", "a" form a loop that does not pass through a loop node \(logic.loop\)/) },
    ]);
  });

  it('contract 5: a cycle that does not pass through logic.loop is refused', () => {
    const graph = loopGraph();
    graph.nodes[1] = { id: 'loop', type: 'test.step' }; // same wiring, but no pass counter
    graph.edges[4]!.branch = 'failed';
    expect(check(graph)).toEqual(one('loop', /Nodes "loop", "wait" form a loop that does not pass through a loop node/));
  });

  it('contract 5: a step wired to itself is a cycle without a loop node', () => {
    const graph = linearGraph();
    graph.edges.push({ from: 'a', to: 'a', branch: 'failed' });
    expect(check(graph)).toEqual(one('a', /Nodes "a" form a loop/));
  });

  it('contract 5: a cycle is refused when a second, uncounted cycle hides behind a counted one', () => {
    const graph = loopGraph();
    // wait -timeout→ extra -ok→ wait: a cycle that skips the loop node.
    graph.nodes.push({ id: 'extra', type: 'test.step' });
    graph.edges[3] = { from: 'wait', to: 'extra', branch: 'timeout' };
    graph.edges.push({ from: 'extra', to: 'wait' });
    expect(check(graph)).toEqual(one('wait', /Nodes "wait", "extra" form a loop/));
  });
});
