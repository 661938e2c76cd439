// Marks the nodes of a draft's drawing that have validation problems (data-problem="true"; the dashboard outlines them).

/** The same escaping as the SVG renderer's attributes, so an id with odd characters still matches its node. */
const attr = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The drawing with every node named by a problem marked; problems without a node leave it as it is. */
export function markProblemNodes(svg: string, problems: readonly { nodeId?: string }[]): string {
  let out = svg;
  for (const id of new Set(problems.map((p) => p.nodeId).filter((id): id is string => Boolean(id)))) {
    const mark = `data-node-id="${attr(id)}"`;
    out = out.replaceAll(mark, `data-problem="true" ${mark}`);
  }
  return out;
}
