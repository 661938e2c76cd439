// Marks the nodes of a draft's drawing that have validation problems (data-problem="true"; the dashboard outlines them).

/** The same escaping as the SVG renderer's attributes, so an id with odd characters still matches its node. */
const attr = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * The drawing with every node named by a problem marked; problems without a node leave it as it is. One pass over
 * the drawing whatever the number of problems (a 500-node draft can have thousands, and its drawing is large).
 */
export function markProblemNodes(svg: string, problems: readonly { nodeId?: string }[]): string {
  const marked = new Set(problems.map((p) => p.nodeId).filter((id): id is string => Boolean(id)).map(attr));
  if (marked.size === 0) return svg;
  return svg.replace(/data-node-id="([^"]*)"/g, (mark: string, id: string) => (marked.has(id) ? `data-problem="true" ${mark}` : mark));
}
