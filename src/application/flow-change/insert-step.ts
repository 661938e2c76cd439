// Insert: a new node of a catalogue type before or after a step (or on one of its branches), wired so the flow still runs.
import type { Catalogue } from '../../engine/catalogue.js';
import type { NodeTypeDef } from '../../engine/node-type.js';
import { resolveBranchSource } from './branch-source.js';
import {
  branchesOf, edgeBranch, findNode, nameById, namedNodes, newEdge, nodeName, primaryBranch, primaryEdge, unusedId, type DraftGraph, type DraftNode,
} from './draft-graph.js';
import { addEnd, endingOutcome } from './end-for-branch.js';
import { cannotChange } from './flow-change-refusals.js';
import type { FlowInstruction, NewStepPhrase } from './flow-instruction.js';
import { matchNodeType } from './node-type-matcher.js';
import { requireStep } from './step-matcher.js';
import { wordsOf } from './phrase-text.js';

type Insert = Extract<FlowInstruction, { kind: 'insert' }>;

const AUDIENCE_LABEL = { seller: 'sellers', customer: 'buyer', operations: 'operations' } as const;

/** The catalogue type the phrase asks for; triggers, ends and continue-as-new are not steps one inserts. */
function newStepType(what: NewStepPhrase, catalogue: Catalogue): NodeTypeDef {
  const pick = matchNodeType(what.type, catalogue);
  if (pick.kind === 'none') {
    const kinds = catalogue.list().filter((d) => d.kind === 'step' || d.kind === 'wait').map((d) => d.label.toLowerCase());
    throw cannotChange(`no node type matches "${what.type}". Steps one can add: ${kinds.join(', ')}.`);
  }
  if (pick.kind === 'ambiguous') throw cannotChange(`"${what.type}" could be ${pick.items.map((d) => `${d.label} (${d.type})`).join(' or ')}; say which.`);
  const def = pick.item;
  if (def.kind === 'trigger') throw cannotChange('a flow has exactly one trigger; a second cannot be inserted.');
  if (def.kind === 'end' || def.kind === 'continue') {
    throw cannotChange(`an ${def.label} node has no next step, so it cannot be inserted between steps; send a branch to it instead ("send rejected orders to cancel").`);
  }
  return def;
}

/** The new node: an unused id from its type, its label, and the params the words gave (the catalogue fills the rest). */
function newNode(graph: DraftGraph, def: NodeTypeDef, what: NewStepPhrase): { node: DraftNode; unused: string[] } {
  const short = def.type.slice(def.type.indexOf('.') + 1);
  const params: Record<string, unknown> = {};
  const unused: string[] = [];
  if (what.duration) {
    if (def.type === 'wait.delay') params.duration = what.duration;
    else if (def.type === 'human.approval' || def.type === 'wait.event') params.timeout = what.duration;
    else unused.push(`the duration ${what.duration} (a ${def.label} step has none)`);
  }
  if (what.event && def.type === 'wait.event') params.event = what.event;
  let label = def.label;
  let base = wordsOf(def.type === 'wait.event' ? 'wait_event' : short).replace(/ /g, '_');
  if (def.type === 'commerce.notify' && what.audience) {
    params.to = what.audience;
    label = `Notify ${AUDIENCE_LABEL[what.audience]}`;
    base = `notify_${AUDIENCE_LABEL[what.audience]}`;
  } else if (what.audience && def.type !== 'commerce.notify') unused.push(`"${AUDIENCE_LABEL[what.audience]}" (only a notification has an audience)`);
  const node: DraftNode = { id: unusedId(graph, base), type: def.type, label, ...(Object.keys(params).length > 0 ? { params } : {}) };
  return { node, unused };
}

/** Places `node` in the node list just before or after `anchor`, so the list still reads in flow order. */
function place(graph: DraftGraph, node: DraftNode, anchor: DraftNode, where: 'before' | 'after'): void {
  const at = graph.nodes.indexOf(anchor);
  graph.nodes.splice(at < 0 ? graph.nodes.length : where === 'before' ? at : at + 1, 0, node);
}

/** Applies an insert; returns the sentences saying what changed. */
export function insertStep(graph: DraftGraph, ins: Insert, catalogue: Catalogue): string[] {
  const def = newStepType(ins.what, catalogue);
  const { node, unused } = newNode(graph, def, ins.what);
  const changes: string[] = [];
  const paramText = node.params ? ` with ${Object.entries(node.params).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')}` : '';
  let next: DraftNode | null = null;
  let reachedBy: string | null = null;

  if (ins.where === 'before') {
    const target = requireStep(ins.step ?? '', namedNodes(graph), catalogue);
    if (catalogue.get(target.type)?.kind === 'trigger') throw cannotChange(`${nodeName(target)} is the trigger; nothing can come before it.`);
    const incoming = graph.edges.filter((e) => e.to === target.id);
    for (const e of incoming) e.to = node.id;
    place(graph, node, target, 'before');
    next = target;
    const from = incoming.map((e) => `${nameById(graph, e.from)} (${edgeBranch(e, graph, catalogue) ?? 'its default branch'})`);
    changes.push(`Added ${nodeName(node)}, a new ${def.type} step${paramText}, before ${nodeName(target)}.`);
    changes.push(from.length > 0 ? `What led to ${nodeName(target)} now leads to the new step: ${from.join(', ')}.` : `Nothing led to ${nodeName(target)}, so nothing leads to the new step either.`);
  } else {
    let source: DraftNode;
    let branch: string | null;
    if (ins.branch !== null) ({ node: source, branch } = resolveBranchSource(ins.branch, ins.step, graph, catalogue));
    else {
      source = requireStep(ins.step ?? '', namedNodes(graph), catalogue);
      const kind = catalogue.get(source.type)?.kind;
      if (kind === 'end' || kind === 'continue') throw cannotChange(`${nodeName(source)} ends the run; nothing can come after it.`);
      const edge = primaryEdge(graph, source, catalogue);
      const sourceDef = catalogue.get(source.type);
      branch = edge ? edgeBranch(edge, graph, catalogue) : sourceDef ? primaryBranch(sourceDef, branchesOf(source, catalogue)) : null;
    }
    const edge = graph.edges.find((e) => e.from === source.id && edgeBranch(e, graph, catalogue) === branch);
    if (edge) {
      next = findNode(graph, edge.to) ?? null;
      edge.to = node.id;
    } else graph.edges.push(newEdge(source, branch, node.id, catalogue));
    reachedBy = branch;
    place(graph, node, source, 'after');
    changes.push(`Added ${nodeName(node)}, a new ${def.type} step${paramText}, after ${nodeName(source)} on its ${branch ?? 'default'} branch.`);
  }

  // The new node continues on its primary branch to where the flow went before; its other branches end or continue too.
  const branches = branchesOf(node, catalogue);
  const primary = primaryBranch(def, branches);
  if (primary !== null) {
    if (next) {
      graph.edges.push(newEdge(node, primary, next.id, catalogue));
      changes.push(`Its ${primary} branch leads to ${nodeName(next)}.`);
    } else {
      const outcome = (reachedBy && endingOutcome(reachedBy)) ?? 'completed';
      const end = addEnd(graph, node, primary, outcome);
      graph.edges.push(newEdge(node, primary, end.id, catalogue));
      changes.push(`Its ${primary} branch ends at a new End ${nodeName(end)} (outcome ${outcome}), as the branch it sits on led nowhere.`);
    }
  }
  const optional = def.optionalBranches ?? [];
  for (const branch of branches.filter((b) => b !== primary && !optional.includes(b))) {
    const outcome = endingOutcome(branch);
    if (outcome === null && next) {
      graph.edges.push(newEdge(node, branch, next.id, catalogue));
      changes.push(`Its ${branch} branch also leads to ${nodeName(next)}.`);
      continue;
    }
    const end = addEnd(graph, node, branch, outcome ?? 'completed');
    graph.edges.push(newEdge(node, branch, end.id, catalogue));
    changes.push(`Its ${branch} branch ends at a new End ${nodeName(end)} (outcome ${outcome ?? 'completed'}).`);
  }
  if (unused.length > 0) changes.push(`Not used: ${unused.join('; ')}.`);
  return changes;
}
