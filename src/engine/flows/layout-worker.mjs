// The flow-drawing layout thread: runs dagre on plain boxes and edges sent by layout-pool.ts and answers positions.
// Plain JavaScript on purpose: the same file runs under tsx, vitest and the compiled build (copied into dist/),
// and it needs nothing of the service but dagre. It is started without the parent's --import flags.
import { parentPort } from 'node:worker_threads';
import dagre from '@dagrejs/dagre';

/**
 * One layout: `request` is a LayoutRequest of flow-layout.ts (graph options, node boxes, edges with optional
 * label boxes); the answer is a LayoutResult (the drawing's size, each node's centre, each edge's route).
 */
function layout(request) {
  const g = new dagre.graphlib.Graph({ multigraph: true, directed: true });
  g.setGraph({ ...request.options });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of request.nodes) g.setNode(n.id, { width: n.width, height: n.height });
  request.edges.forEach((e, i) => g.setEdge(e.from, e.to, { ...(e.label ?? {}), minlen: 1 }, `e${i}`));
  dagre.layout(g);
  const graph = g.graph();
  return {
    width: graph.width ?? 0,
    height: graph.height ?? 0,
    nodes: request.nodes.map((n) => {
      const laid = g.node(n.id);
      return { x: laid.x, y: laid.y, width: laid.width, height: laid.height };
    }),
    edges: request.edges.map((e, i) => {
      const laid = g.edge({ v: e.from, w: e.to, name: `e${i}` });
      return { points: (laid.points ?? []).map((p) => ({ x: p.x, y: p.y })), x: laid.x ?? null, y: laid.y ?? null };
    }),
  };
}

// Loaded (dagre imported): from now on a layout's budget measures the layout alone, not the thread's start.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (job) => {
  try {
    parentPort.postMessage({ id: job.id, result: layout(job.request) });
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
});
