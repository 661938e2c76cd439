// The graph a new flow starts from in the editor: a trigger, one approval and its ends (valid, so it can be published as is).
export const STARTER_GRAPH = {
  nodes: [
    { id: 'start', type: 'trigger.api', label: 'Order received' },
    { id: 'review', type: 'human.approval', label: 'Review', params: { title: 'Review order {{order.id}}', timeout: '2d' } },
    { id: 'done', type: 'end', label: 'Done', params: { outcome: 'completed' } },
    { id: 'refused', type: 'end', label: 'Refused', params: { outcome: 'declined' } },
  ],
  edges: [
    { from: 'start', to: 'review' },
    { from: 'review', to: 'done', branch: 'approved' },
    { from: 'review', to: 'refused', branch: 'rejected' },
    { from: 'review', to: 'refused', branch: 'escalated' },
  ],
} as const;
