// Reconnect: point a step's branch at another step or at an End (an existing one with the outcome said, else a new one).
import type { Catalogue } from '../../engine/catalogue.js';
import { resolveBranchSource } from './branch-source.js';
import {
  edgeBranch, findNode, nameById, namedNodes, newEdge, nodeName, parsedParams, pruneCutOff, reachableIds, unusedId, type DraftGraph, type DraftNode,
} from './draft-graph.js';
import { cannotChange, stepAmbiguous } from './flow-change-refusals.js';
import type { FlowInstruction } from './flow-instruction.js';
import { fuzzyPick } from './fuzzy-pick.js';
import { cleanPhrase, wordsOf } from './phrase-text.js';
import { requireStep } from './step-matcher.js';

type Reconnect = Extract<FlowInstruction, { kind: 'reconnect' }>;

/** Words naming an End's outcome ("cancel", "declined", "the failed end"). */
const OUTCOME_WORDS: [RegExp, string][] = [
  [/^(cancel|cancels|cancell?ed|cancell?ation)$/, 'cancelled'],
  [/^(decline|declines|declined|refuse|refused)$/, 'declined'],
  [/^(fail|fails|failed|failure)$/, 'failed'],
  [/^(complete|completed|completion|done|finish|finished|success)$/, 'completed'],
];

/** The outcome a target phrase names, or null. */
function outcomeOf(phrase: string): string | null {
  const text = cleanPhrase(phrase).replace(/\s+(end|outcome|state|ending)$/, '').replace(/^(end|end as|end with)\s+/, '');
  return OUTCOME_WORDS.find(([re]) => re.test(text))?.[1] ?? null;
}

/** The node the branch should lead to; `created` when a new End was added for the outcome named. */
function resolveTarget(phrase: string, graph: DraftGraph, source: DraftNode, catalogue: Catalogue): { node: DraftNode; created: boolean } {
  const candidates = namedNodes(graph).filter((n) => n.id !== source.id && catalogue.get(n.type)?.kind !== 'trigger');
  const exact = fuzzyPick(phrase, candidates.map((n) => ({ item: n, exact: [wordsOf(n.id), cleanPhrase(n.label ?? '')], fuzzy: [] })));
  if (exact.kind === 'found') return { node: exact.item, created: false };
  const outcome = outcomeOf(phrase);
  if (outcome !== null) {
    const ends = candidates.filter((n) => n.type === 'end' && (parsedParams(n, catalogue) as { outcome?: string } | null)?.outcome === outcome);
    if (ends.length === 1) return { node: ends[0], created: false };
    if (ends.length > 1) throw stepAmbiguous(phrase, ends);
    const label = outcome.charAt(0).toUpperCase() + outcome.slice(1);
    const end: DraftNode = { id: unusedId(graph, outcome), type: 'end', label, params: { outcome, reason: `${label} at ${source.label ?? source.id}` } };
    graph.nodes.push(end);
    return { node: end, created: true };
  }
  return { node: requireStep(phrase, candidates, catalogue), created: false };
}

/** Applies a reconnect; returns the sentences saying what changed. */
export function reconnectBranch(graph: DraftGraph, ins: Reconnect, catalogue: Catalogue): string[] {
  const { node: source, branch } = resolveBranchSource(ins.branch, ins.step, graph, catalogue);
  const before = reachableIds(graph, catalogue);
  const edge = graph.edges.find((e) => e.from === source.id && edgeBranch(e, graph, catalogue) === branch);
  if (edge) {
    const current = findNode(graph, edge.to);
    const wanted = resolveTarget(ins.target, graph, source, catalogue);
    if (current && current.id === wanted.node.id) throw cannotChange(`the ${branch} branch of ${nodeName(source)} already leads to ${nodeName(current)}.`);
    edge.to = wanted.node.id;
    const changes = [
      `The ${branch} branch of ${nodeName(source)} now leads to ${wanted.created ? 'a new End ' : ''}${nodeName(wanted.node)}` +
        `${wanted.created ? ` (outcome ${(wanted.node.params as { outcome: string }).outcome})` : ''} instead of ${nameById(graph, current?.id ?? edge.to)}.`,
    ];
    const cut = pruneCutOff(graph, before, catalogue);
    if (cut.length > 0) changes.push(`No longer reachable, so removed: ${cut.map(nodeName).join(', ')}.`);
    return changes;
  }
  const wanted = resolveTarget(ins.target, graph, source, catalogue);
  graph.edges.push(newEdge(source, branch, wanted.node.id, catalogue));
  return [`The ${branch} branch of ${nodeName(source)}, not connected before, now leads to ${wanted.created ? 'a new End ' : ''}${nodeName(wanted.node)}.`];
}
