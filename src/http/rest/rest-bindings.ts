// The REST surface of the registry: every operation's method, path, success status and documented refusals, in one table.
import type { RestBinding } from './rest-binding.js';

const idempotencyKey = (description: string) => ({ name: 'Idempotency-Key', field: 'idempotencyKey', description });

/** A start answers 201; a replay of an Idempotency-Key answers 200 with the first order. */
const startedOrReplayed = (output: { orderId: string; replayed?: true }) =>
  output.replayed ? { status: 200, body: { orderId: output.orderId, replayed: true } } : { status: 201, body: { orderId: output.orderId } };

export const REST_BINDINGS: readonly RestBinding[] = [
  // Orders (spec "Endpoints").
  {
    operation: 'startOrder',
    method: 'post',
    path: '/api/v1/orders',
    headers: [idempotencyKey('At most 255 characters. A repeat with the same body answers 200 with the first order; with another body 422.')],
    status: 201,
    success: 'Started',
    respond: startedOrReplayed,
    alsoAnswers: { 200: 'A repeat of an Idempotency-Key: the first order' },
    errors: {
      400: 'Invalid body, unsupported currency or Idempotency-Key over 255 characters',
      409: 'The flow has no published version (or not the one asked for)',
      422: 'The Idempotency-Key was used with a different body',
    },
  },
  {
    operation: 'listOrders',
    method: 'get',
    path: '/api/v1/orders',
    success: 'One page; nextCursor is null on the last page',
    errors: { 400: 'Invalid filter, limit or a cursor not issued by the API' },
  },
  // Before /api/v1/orders/:id, so the static segment is not read as an order id.
  {
    operation: 'getOrderTotals',
    method: 'get',
    path: '/api/v1/orders/totals',
    success: 'count and totalUsd of every match, with up to limit rows newest first',
    errors: { 400: 'Invalid filter or limit' },
  },
  { operation: 'getOrder', method: 'get', path: '/api/v1/orders/:id', success: 'Live state', errors: { 404: 'Unknown order' } },
  { operation: 'getOrderBrief', method: 'get', path: '/api/v1/orders/:id/brief', success: 'The brief', errors: { 404: 'Unknown order' } },
  {
    operation: 'assessOrder',
    method: 'post',
    path: '/api/v1/orders/:id/assessment',
    success: 'One answer per question, in order',
    errors: { 400: 'Invalid questions, or more than 4 images, or an image not PNG, JPEG or WebP', 404: 'Unknown order' },
  },
  { operation: 'getAttention', method: 'get', path: '/api/v1/attention', success: 'The four lists (approvals, failed, waiting, held) and their counts' },
  { operation: 'listOrderNotifications', method: 'get', path: '/api/v1/orders/:id/notifications', success: 'Notifications, oldest first', errors: { 404: 'Unknown order' } },
  {
    operation: 'deliverEvent',
    method: 'post',
    path: '/api/v1/orders/:id/events',
    success: '{ delivered: true, nodeId } or { delivered: false, waitingFor } when no node waits for it (waitingFor: the events it waits for now)',
    errors: { 400: 'event not 1 to 100 characters, or payload over 32 KiB of JSON', 404: 'Unknown order' },
  },
  {
    operation: 'decideApproval',
    method: 'post',
    path: '/api/v1/orders/:id/approvals/:nodeId',
    success: 'Decided',
    errors: { 404: 'Unknown order', 409: 'That node is not waiting for an approval' },
  },
  {
    operation: 'resolveHold',
    method: 'post',
    path: '/api/v1/orders/:id/holds/:nodeId',
    success: 'Resolved: the step runs again (retry) or its failure takes its course (rollback)',
    errors: { 400: 'action not retry or rollback, or a note over 2,000 characters', 404: 'Unknown order', 409: 'That node is not held' },
  },
  { operation: 'cancelOrder', method: 'post', path: '/api/v1/orders/:id/cancel', success: 'Cancelled', errors: { 404: 'Unknown order', 409: 'The order already finished' } },
  {
    operation: 'restartOrder',
    method: 'post',
    path: '/api/v1/orders/:id/restart',
    headers: [idempotencyKey('At most 255 characters; a repeat answers 200 with the same new order.')],
    status: 201,
    success: 'The new order',
    respond: startedOrReplayed,
    alsoAnswers: { 200: 'A repeat of an Idempotency-Key' },
    errors: { 404: 'Unknown order', 409: 'The order did not end failed, rolled back, cancelled or declined' },
  },
  {
    operation: 'startReturn',
    method: 'post',
    path: '/api/v1/orders/:id/returns',
    headers: [idempotencyKey('At most 255 characters. A repeat with the same body answers 200 with the first return; with another body 422.')],
    status: 201,
    success: 'Started: the return and its order',
    respond: (output: { returnId: string; orderId: string; replayed?: true }) =>
      output.replayed ? { status: 200, body: output } : { status: 201, body: { returnId: output.returnId, orderId: output.orderId } },
    alsoAnswers: { 200: 'A repeat of an Idempotency-Key: the first return' },
    errors: {
      400: 'Invalid body, an unknown SKU, a SKU of several sellers without sellerId, or more units than are left to return (issues)',
      404: 'Unknown order',
      409: 'Not paid yet, the return window closed (marketplace: payouts scheduled), the order ended unsold, or the order is itself a return',
      422: 'The Idempotency-Key was used with a different body',
    },
  },
  { operation: 'listApprovals', method: 'get', path: '/api/v1/approvals', success: 'Approvals, oldest first', errors: { 400: 'Unknown status filter' } },
  { operation: 'listOrderPayouts', method: 'get', path: '/api/v1/orders/:id/payouts', success: 'Payouts; amounts in the order currency', errors: { 404: 'Unknown order' } },
  { operation: 'listOrderSellerOrders', method: 'get', path: '/api/v1/orders/:id/seller-orders', success: 'Seller orders; amounts in the order currency', errors: { 404: 'Unknown order' } },
  { operation: 'listSellerOrders', method: 'get', path: '/api/v1/sellers/:id/orders', success: 'Seller orders; amounts in the order currency', errors: { 404: 'Unknown seller' } },

  // Batches (contract section 16).
  {
    operation: 'startBatch',
    method: 'post',
    path: '/api/v1/batches',
    status: 202,
    success: 'Started: { batch } (its orders are fixed now)',
    respond: (output: { batch: unknown } | { count: number; sample: string[] }) => ({ status: 'batch' in output ? 202 : 200, body: output }),
    alsoAnswers: { 200: 'dryRun: { count, sample }; nothing started' },
    errors: {
      400: 'Invalid body: an unknown operation, an input the operation refuses, not exactly one of orderIds and filter, more than 10,000 orderIds, or a filter matching more than 100,000 orders',
      403: "Below the operation's role (approver for decide_approval, operator otherwise)",
    },
  },
  { operation: 'listBatches', method: 'get', path: '/api/v1/batches', success: 'Batches, newest first' },
  { operation: 'getBatch', method: 'get', path: '/api/v1/batches/:id', success: 'The batch and its latest 1,000 results', errors: { 404: 'Unknown batch' } },
  { operation: 'pauseBatch', method: 'post', path: '/api/v1/batches/:id/pause', success: 'Paused', errors: { 404: 'Unknown batch', 409: 'The batch is not running' } },
  { operation: 'resumeBatch', method: 'post', path: '/api/v1/batches/:id/resume', success: 'Running again', errors: { 404: 'Unknown batch', 409: 'The batch is not paused' } },
  {
    operation: 'cancelBatch',
    method: 'post',
    path: '/api/v1/batches/:id/cancel',
    success: 'Cancelled',
    errors: { 404: 'Unknown batch', 409: 'The batch already completed or was cancelled' },
  },

  // Back office (contract section 13).
  { operation: 'listSellers', method: 'get', path: '/api/v1/sellers', success: 'Sellers, by id' },
  { operation: 'listProducts', method: 'get', path: '/api/v1/products', success: 'Products with stock, by SKU' },
  { operation: 'listPayouts', method: 'get', path: '/api/v1/payouts', success: 'Payouts, newest first', errors: { 400: 'Unknown status filter' } },
  {
    operation: 'markPayoutPaid',
    method: 'post',
    path: '/api/v1/payouts/:id/paid',
    success: 'The payout, now paid',
    errors: { 404: 'Unknown payout', 409: 'The payout is already paid or was reversed' },
  },
  { operation: 'runStockReview', method: 'post', path: '/api/v1/stock-review', success: 'The reorders started' },

  // Flows (contract section 4).
  { operation: 'listFlows', method: 'get', path: '/api/v1/flows', success: 'Every flow, by id' },
  { operation: 'getFlow', method: 'get', path: '/api/v1/flows/:id', success: 'The flow', errors: { 404: 'Unknown flow' } },
  { operation: 'saveFlowDraft', method: 'put', path: '/api/v1/flows/:id', success: 'Saved' },
  {
    operation: 'checkFlowDraft',
    method: 'post',
    path: '/api/v1/flows/:id/validate',
    success: 'Problems and the drawing (svg null with drawing false); nothing is saved',
    errors: { 400: 'Not a graph, or over 500 nodes or 2000 edges', 429: 'More than 4 new drawings in 10 seconds (Retry-After); drawing false is never refused' },
  },
  {
    operation: 'publishFlow',
    method: 'post',
    path: '/api/v1/flows/:id/publish',
    success: 'The new version number',
    errors: { 400: 'The draft has validation problems (one issue each)', 404: 'Unknown flow' },
  },
  {
    operation: 'proposeFlowChange',
    method: 'post',
    path: '/api/v1/flows/:id/proposals',
    success: 'The changed graph, its problems and what changed; nothing is saved',
    errors: { 400: 'An instruction it cannot read or apply (with what it understands)', 404: 'Unknown flow' },
  },
  {
    operation: 'getFlowStats',
    method: 'get',
    path: '/api/v1/flows/:id/stats',
    success: 'Runs, durations, orders at each node now and edges taken of a version over a range of order creation (contract section 17)',
    errors: { 400: 'A range over 93 days, from after to, or a number that is not one', 404: 'Unknown flow or version, or a flow never published' },
  },
  { operation: 'getFlowMachine', method: 'get', path: '/api/v1/flows/:id/versions/:v/machine', success: 'XState v5 machine config', errors: { 404: 'Unknown flow or version' } },
  {
    operation: 'getFlowDiagram',
    method: 'get',
    path: '/api/v1/flows/:id/versions/:v/diagram.svg',
    mediaType: 'image/svg+xml',
    respond: (output: { svg: string }) => ({ status: 200, body: output.svg, headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'private, max-age=3600' } }),
    success: 'The drawing (SVG); the same for the same version',
    errors: { 404: 'Unknown flow or version', 429: 'More than 4 new drawings in 10 seconds (Retry-After)' },
  },
  { operation: 'listNodeTypes', method: 'get', path: '/api/v1/node-types', success: 'Node types' },
  // Moving live orders to a new flow version (contract 15).
  {
    operation: 'migrateFlowOrders',
    method: 'post',
    path: '/api/v1/flows/:id/migrations',
    status: 202,
    success: 'Started: { batch } (operation migrate) over the orders movable now',
    respond: (output: { batch: unknown } | Record<string, unknown>) => ({ status: 'batch' in output ? 202 : 200, body: output }),
    alsoAnswers: { 200: 'dryRun: { fromVersion, toVersion, movableCount, refusedCount, movable, refused: [{ orderId, reason }] }; nothing changed' },
    errors: {
      400: 'Invalid body, a version that is not a published version of this flow, toVersion equal to fromVersion, a mapping naming a node its version lacks, or more than 100,000 candidates',
      403: 'Below operator',
      404: 'Unknown flow',
    },
  },

  // Trying a flow before it goes live (contract 14).
  {
    operation: 'simulateFlow',
    method: 'post',
    path: '/api/v1/flows/:id/simulate',
    success: 'The simulated run in the live-state shape, with its path and the script entries used; nothing was kept',
    errors: {
      400: 'Invalid body, a graph with problems (as issues), a script entry that does not apply (its index), or past the budget of 1,000 slices or 2 s CPU',
      404: 'Unknown flow or version',
      429: 'More than 2 simulations at once or 20 per minute for this caller (Retry-After)',
    },
  },
  {
    operation: 'getFlowPaths',
    method: 'get',
    path: '/api/v1/flows/:id/paths',
    success: 'The paths (at most 500) and the unreachable nodes',
    errors: { 400: 'The draft has validation problems (one issue each)', 404: 'Unknown flow or version' },
  },
  {
    operation: 'getFlowDiff',
    method: 'get',
    path: '/api/v1/flows/:id/diff',
    success: 'What changed and the live orders of `from` by node',
    errors: { 404: 'Unknown flow or version', 409: 'The flow has no published version to compare with' },
  },

  // Webhook subscriptions.
  { operation: 'listWebhookSubscriptions', method: 'get', path: '/api/v1/webhook-subscriptions', success: 'Newest first' },
  {
    operation: 'createWebhookSubscription',
    method: 'post',
    path: '/api/v1/webhook-subscriptions',
    status: 201,
    success: 'Subscribed',
    errors: { 400: 'URL not https (or loopback http), or an unknown event name' },
  },
  { operation: 'deleteWebhookSubscription', method: 'delete', path: '/api/v1/webhook-subscriptions/:id', success: 'Deleted', errors: { 404: 'No such subscription' } },
  { operation: 'listWebhookDeliveries', method: 'get', path: '/api/v1/webhook-subscriptions/:id/deliveries', success: 'Deliveries', errors: { 404: 'No such subscription' } },

  // Integrations (spec "Integrations").
  { operation: 'listIntegrations', method: 'get', path: '/api/v1/integrations', success: 'Integrations' },
  { operation: 'createIntegration', method: 'post', path: '/api/v1/integrations', status: 201, success: 'Created', errors: { 400: 'Invalid name (1 to 100 characters), scope or channel' } },
  { operation: 'rotateIntegration', method: 'post', path: '/api/v1/integrations/:id/rotate', success: 'Rotated', errors: { 404: 'Unknown or revoked integration' } },
  { operation: 'revokeIntegration', method: 'delete', path: '/api/v1/integrations/:id', success: 'Revoked', errors: { 404: 'Absent or already revoked' } },

  // Identity (contract section 4).
  { operation: 'listTeam', method: 'get', path: '/api/v1/team', success: 'People' },
  { operation: 'addPerson', method: 'post', path: '/api/v1/team', status: 201, success: 'Added', errors: { 409: 'Email already in the team' } },
  {
    operation: 'updatePerson',
    method: 'patch',
    path: '/api/v1/team/:id',
    success: 'Updated',
    errors: { 403: 'Lowering your own role or disabling yourself', 409: 'The last active operator (no workspace password)' },
  },
  { operation: 'resetPassword', method: 'post', path: '/api/v1/team/:id/reset-password', success: 'New temporary password' },
  { operation: 'resetTwoFactor', method: 'post', path: '/api/v1/team/:id/reset-two-factor', success: 'Done' },
  { operation: 'listApiTokens', method: 'get', path: '/api/v1/api-tokens', success: 'Live tokens, newest first' },
  { operation: 'createApiToken', method: 'post', path: '/api/v1/api-tokens', status: 201, success: 'Created' },
  { operation: 'revokeApiToken', method: 'delete', path: '/api/v1/api-tokens/:id', success: 'Revoked', errors: { 404: 'Unknown or already revoked' } },
  { operation: 'getSettings', method: 'get', path: '/api/v1/settings', success: 'Settings' },
  { operation: 'updateSettings', method: 'patch', path: '/api/v1/settings', success: 'Settings' },
  { operation: 'listAuditEvents', method: 'get', path: '/api/v1/audit-events', success: 'Events' },

  // System.
  { operation: 'getRuntimeStats', method: 'get', path: '/api/v1/runtime/stats', success: 'Gauges of this process' },
  { operation: 'advanceTestClock', method: 'post', path: '/api/v1/test/clock', success: 'The new time', optional: true },
];
