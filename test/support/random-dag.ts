// The review's drawing-cost probe (security-review-2 H-1): a seeded random DAG, a chain plus random forward edges, human.approval nodes with 40-character labels.
import { seededRandom } from '../resilience/support/seed.js';

/**
 * `nodes` human.approval nodes (no trigger, no params: a draft full of problems, drawn all the same) with 40-character
 * labels, chained n0 → n1 → …, then random forward edges up to `edges` in all, each pair once. Its layout cost comes
 * from the edge crossings: 500/2000 took dagre 37-49 s in the review.
 */
export function randomDag(nodes: number, edges: number, seed = 1): { nodes: { id: string; type: string; label: string }[]; edges: { from: string; to: string }[] } {
  const rnd = seededRandom(seed);
  const list = Array.from({ length: nodes }, (_, i) => ({ id: `n${i}`, type: 'human.approval', label: `Approval step ${i} `.padEnd(40, 'x') }));
  const out: { from: string; to: string }[] = [];
  const seen = new Set<string>();
  for (let i = 0; i + 1 < nodes; i++) {
    out.push({ from: `n${i}`, to: `n${i + 1}` });
    seen.add(`${i}>${i + 1}`);
  }
  const max = (nodes * (nodes - 1)) / 2;
  while (out.length < Math.min(edges, max)) {
    const a = Math.floor(rnd() * (nodes - 1));
    const b = a + 1 + Math.floor(rnd() * (nodes - 1 - a));
    if (seen.has(`${a}>${b}`)) continue;
    seen.add(`${a}>${b}`);
    out.push({ from: `n${a}`, to: `n${b}` });
  }
  return { nodes: list, edges: out };
}
