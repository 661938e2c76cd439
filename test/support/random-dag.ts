// The review's drawing-cost probe (security-review-2 H-1): a seeded random DAG, a chain plus random forward edges, human.approval nodes with 40-character labels.

/** A small deterministic generator (mulberry32), so the same seed gives the same graph on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `nodes` human.approval nodes (no trigger, no params: a draft full of problems, drawn all the same) with 40-character
 * labels, chained n0 → n1 → …, then random forward edges up to `edges` in all, each pair once. Its layout cost comes
 * from the edge crossings: 500/2000 took dagre 37-49 s in the review.
 */
export function randomDag(nodes: number, edges: number, seed = 1): { nodes: { id: string; type: string; label: string }[]; edges: { from: string; to: string }[] } {
  const rnd = mulberry32(seed);
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
