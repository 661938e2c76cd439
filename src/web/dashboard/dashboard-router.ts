// Routes of the dashboard pages (contract section 13): orders, new order, an order, approvals, flows, back office; they call registry operations as the signed-in person.
import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Authenticator } from '../../auth/authenticator.js';
import type { Principal } from '../../auth/principal.js';
import type { Role } from '../../auth/roles.js';
import type { OperationRegistry } from '../../application/operation-registry.js';
import type { OperationInput, OperationName, OperationOutput } from '../../application/operation-types.js';
import type { Clock } from '../../platform/clock.js';
import type { FlowDiagrams } from '../../engine/flows/flow-diagrams.js';
import type { Catalogue } from '../../engine/catalogue.js';
import { edgeKey } from '../../engine/flows/flow-diagram-svg.js';
import { markProblemNodes } from '../../engine/flows/flow-diagram-problems.js';
import { analyseGraph } from '../../engine/validator.js';
import { randomUUID } from 'node:crypto';
import { DomainError, ValidationError } from '../../domain/errors.js';
import { HTTP_STATUS } from '../../transport/http-errors.js';
import { callerKey } from '../../auth/caller-key.js';
import { INBOX_STATUSES, type InboxStatus } from '../../orders/approval-inbox.js';
import { html, page } from '../../transport/html.js';
import { seeOther, send } from '../../transport/page-responses.js';
import { readForm, readFormFields } from '../../transport/read-form.js';
import { pagePrincipal } from '../page-principal.js';
import { dashboardCss } from './dashboard-css.js';
import { dashboardBundle } from './client-bundle.js';
import { ordersPage, type BulkOperation, type OrdersFilters } from './orders-page.js';
import { BATCH_OPERATION_LABELS, batchesPage } from './batches-page.js';
import { BATCH_OPERATION_NAMES, BATCH_OPERATIONS, batchOperationOf } from '../../application/batches/batch-operation-table.js';
import { DEFAULT_BATCH_RATE } from '../../batches/batch-view.js';
import { ORDER_FILTER_KEYS } from '../../orders/order-filter.js';
import { roleAtLeast } from '../../auth/roles.js';
import { orderFragment, orderPage } from './order-page.js';
import { liveSections } from './order-sections.js';
import { approvalsPage } from './approvals-page.js';
import { flowPage, flowsPage, type FlowPathsView } from './flows-page.js';
import { type MoveSectionView, type MoveSourceView } from './flow-move-form.js';
import { mappingRows } from './flow-move-mapping.js';
import { heatOf, heatParts, heatRange } from './flow-heat.js';
import { canonicalJson } from '../../orders/canonical-json.js';
import { flowEditorPage, type ImpactView, type SimulatePanelView } from './flow-editor-page.js';
import { sampleInput } from './sample-input.js';
import { STARTER_GRAPH } from './starter-graph.js';
import { graphText } from './graph-text.js';
import { newOrderPage, type NewOrderValues } from './new-order-page.js';
import { newOrderInput, readNewOrderValues } from './new-order-input.js';
import { backOfficePage, PAYOUT_FILTERS, type PayoutFilter } from './back-office-page.js';
import { cspNonce } from '../../transport/security-headers.js';

export interface DashboardRouterOptions {
  auth: Authenticator;
  /** The node catalogue, to check a graph typed into the editor when the page is drawn again. */
  catalogue: Catalogue;
  operations: OperationRegistry;
  diagrams: FlowDiagrams;
  clock: Clock;
}

/** Batch operations the /orders panel does not offer: a move (contract 15) is chosen on the flow's page, with its versions and mapping. */
const STARTED_ELSEWHERE: ReadonlySet<string> = new Set(['migrate']);

const one = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function dashboardRouter(o: DashboardRouterOptions): Router {
  const router = new Router();
  const call = <N extends OperationName>(ctx: Context, principal: Principal, name: N, input: OperationInput<N>) => o.operations.call(name, principal, input, { ip: ctx.ip ?? null });
  /** A form's or a query's values as typed: the operation's schema decides (its 400 is the page's). */
  const callRaw = <N extends OperationName>(ctx: Context, principal: Principal, name: N, input: unknown) => o.operations.callRaw(name, principal, input, { ip: ctx.ip ?? null });
  /** The role a form page needs: that of the operation it performs, read from the registry on each request (one place decides roles). */
  const roleOf = (name: OperationName): Role => {
    const op = o.operations.get(name);
    if (!op) throw new Error(`no operation ${name} in the registry`);
    return op.role;
  };

  /** A refused or failed read as a page with its status (never a 500 for bad input). */
  async function guarded(ctx: Context, principal: Principal, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const status = HTTP_STATUS[err.kind] ?? 400;
      // A throttled page (too many new drawings) says when to come back, as the API does.
      if (typeof err.details?.retryAfterSeconds === 'number') ctx.set('Retry-After', String(err.details.retryAfterSeconds));
      const issues = err instanceof ValidationError ? html`<ul data-error-issues>${err.issues.map((i) => html`<li>${i.path}: ${i.message}</li>`)}</ul>` : '';
      send(ctx, status, page({ title: status === 404 ? 'Not found' : 'Not possible', nonce: cspNonce(ctx), principal, body: html`<p role="alert" data-error>${err.message}</p>${issues}<p><a href="/orders">Orders</a></p>` }));
    }
  }

  router.get('/assets/dashboard.css', (ctx) => {
    ctx.type = 'text/css';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = dashboardCss;
  });
  router.get('/assets/dashboard.js', async (ctx) => {
    ctx.type = 'text/javascript';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = await dashboardBundle();
  });

  // No icon: an empty answer instead of a 404 in every browser console.
  router.get('/favicon.ico', (ctx) => {
    ctx.status = 204;
    ctx.set('Cache-Control', 'public, max-age=86400');
  });

  router.get('/', async (ctx) => {
    const principal = await o.auth.authenticate(ctx).catch(() => null);
    seeOther(ctx, principal ? (principal.restricted ? '/account' : '/orders') : '/login');
  });

  /** The batch operations (contract 16) the person may start: those whose registry operation's role they have. */
  const bulkOperations = (principal: Principal): BulkOperation[] =>
    BATCH_OPERATION_NAMES.filter((name) => !STARTED_ELSEWHERE.has(name) && roleAtLeast(principal.role, roleOf(BATCH_OPERATIONS[name].runs))).map((name) => ({
      name,
      label: BATCH_OPERATION_LABELS[name] ?? name,
    }));

  router.get('/orders', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    const filters: OrdersFilters = {};
    for (const key of ORDER_FILTER_KEYS) {
      const value = one(ctx.query[key]);
      if (value !== undefined) filters[key] = value;
    }
    // The creation bounds may be typed as dates (YYYY-MM-DD, UTC) as well as epoch ms.
    for (const key of ['createdAfter', 'createdBefore'] as const) filters[key] = epochMs(filters[key]);
    const cursor = one(ctx.query.cursor);
    const bulk = bulkOperations(principal);
    try {
      const list = await callRaw(ctx, principal, 'listOrders', { ...filters, ...(cursor ? { cursor } : {}), limit: 50 });
      send(ctx, 200, ordersPage({ nonce: cspNonce(ctx), principal, orders: list.orders, nextCursor: list.nextCursor, filters, batchFilter: batchFilter(filters), bulk, paged: Boolean(cursor) }));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const issues = err instanceof ValidationError ? ` (${err.issues.map((i) => `${i.path} ${i.message}`).join('; ')})` : '';
      send(ctx, HTTP_STATUS[err.kind] ?? 400, ordersPage({ nonce: cspNonce(ctx), principal, orders: [], nextCursor: null, filters, batchFilter: null, bulk, paged: false, error: `${err.message}${issues}: check the filters.` }));
    }
  });

  router.get('/batches', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    const { batches } = await call(ctx, principal, 'listBatches', {});
    const canChange = (operation: string) => {
      const op = batchOperationOf(operation);
      return op !== undefined && roleAtLeast(principal.role, roleOf(op.runs));
    };
    const started = one(ctx.query.started)?.match(/^bat_[a-f0-9]{1,40}$/)?.[0] ?? null;
    send(ctx, 200, batchesPage({ nonce: cspNonce(ctx), principal, batches, canChange, started }));
  });

  /** The new order form, with a fresh idempotency key each time it is drawn. */
  async function renderNewOrder(ctx: Context, principal: Principal, status: number, values: NewOrderValues, err?: DomainError) {
    const { flows } = await call(ctx, principal, 'listFlows', {});
    const issues = err instanceof ValidationError ? err.issues : undefined;
    send(ctx, status, newOrderPage({ nonce: cspNonce(ctx), principal, flows, values, idempotencyKey: randomUUID(), error: err?.message ?? null, issues }));
  }

  router.get('/orders/new', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('startOrder'));
    if (!principal) return;
    await renderNewOrder(ctx, principal, 200, { flowId: one(ctx.query.flow) ?? '' });
  });

  router.post('/orders/new', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('startOrder'));
    if (!principal) return;
    const field = await readForm(ctx);
    const values = readNewOrderValues(field);
    try {
      const { orderId } = await callRaw(ctx, principal, 'startOrder', newOrderInput(values, field('idempotencyKey').slice(0, 255)));
      seeOther(ctx, `/orders/${encodeURIComponent(orderId)}`);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await renderNewOrder(ctx, principal, HTTP_STATUS[err.kind] ?? 400, values, err);
    }
  });

  /** The order's view, drawing and live sections, as the person may see them. */
  async function orderParts(ctx: Context, principal: Principal, id: string) {
    const view = await call(ctx, principal, 'getOrder', { id });
    const [{ payouts }, { sellerOrders }] = await Promise.all([
      call(ctx, principal, 'listOrderPayouts', { id }),
      call(ctx, principal, 'listOrderSellerOrders', { id }),
    ]);
    return { view, sections: liveSections(view, principal, payouts, sellerOrders, { canRestart: roleAtLeast(principal.role, roleOf('restartOrder')), now: o.clock.now() }) };
  }

  router.get('/orders/:id', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    await guarded(ctx, principal, async () => {
      const { view, sections } = await orderParts(ctx, principal, ctx.params.id);
      const status = {
        nodes: Object.fromEntries(Object.entries(view.nodes).map(([id, n]) => [id, String(n.status)])),
        edges: Object.fromEntries(view.edges.map((e) => [edgeKey(e.from, e.to, e.branch), e.status])),
      };
      const svg = await o.diagrams.liveSvg({ flowId: view.flow.id, version: view.flow.version, name: view.flow.name, graph: view.flow.graph }, status, callerKey(principal));
      send(ctx, 200, orderPage({ nonce: cspNonce(ctx), principal, view, svg, sections, now: o.clock.now(), canReturn: roleAtLeast(principal.role, roleOf('startReturn')) }));
    });
  });

  // The live sections the order page's script swaps in after each state message.
  router.get('/orders/:id/live', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    await guarded(ctx, principal, async () => {
      const { view, sections } = await orderParts(ctx, principal, ctx.params.id);
      send(ctx, 200, orderFragment(view, sections, o.clock.now()));
    });
  });

  // Restart (contract 4) from an ended order's page: a new order with the same input, then its page.
  router.post('/orders/:id/restart', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('restartOrder'));
    if (!principal) return;
    const field = await readForm(ctx);
    const key = field('idempotencyKey').slice(0, 255);
    await guarded(ctx, principal, async () => {
      const { orderId } = await callRaw(ctx, principal, 'restartOrder', { id: ctx.params.id, ...(key ? { idempotencyKey: key } : {}) });
      seeOther(ctx, `/orders/${encodeURIComponent(orderId)}`);
    });
  });

  // A return (contract 18) from the order page's Return form: one quantity field per SKU and seller (`qty:<sku>:<seller>`), then the return's page.
  router.post('/orders/:id/returns', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('startReturn'));
    if (!principal) return;
    const fields = await readFormFields(ctx);
    const lines: { sku: string; qty: number; sellerId: string | null }[] = [];
    for (const [name, value] of fields) {
      const m = /^qty:([^:]{1,100}):([^:]{0,100})$/.exec(name);
      const qty = Number(value);
      if (m && value !== '' && qty !== 0) lines.push({ sku: m[1], sellerId: m[2] === '' ? null : m[2], qty });
    }
    const reason = (fields.get('reason') ?? '').trim().slice(0, 500);
    const key = (fields.get('idempotencyKey') ?? '').slice(0, 255);
    await guarded(ctx, principal, async () => {
      // The operation's schema decides what a typed quantity may be (its 400 is the page's, with the issues).
      const { returnId } = await callRaw(ctx, principal, 'startReturn', { id: ctx.params.id, lines, ...(reason ? { reason } : {}), ...(key ? { idempotencyKey: key } : {}) });
      seeOther(ctx, `/orders/${encodeURIComponent(returnId)}`);
    });
  });

  router.get('/approvals', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    const raw = one(ctx.query.status) ?? 'pending';
    const status = (INBOX_STATUSES as readonly string[]).includes(raw) ? (raw as InboxStatus) : 'pending';
    const rows = (await call(ctx, principal, 'listApprovals', { status })).approvals;
    send(ctx, raw === status ? 200 : 400, approvalsPage({ nonce: cspNonce(ctx), principal, rows, status, now: o.clock.now(), error: raw === status ? null : `Unknown status ${raw}: showing pending.` }));
  });

  router.get('/flows', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    const { flows } = await call(ctx, principal, 'listFlows', { activity: 'true' });
    send(ctx, 200, flowsPage({ nonce: cspNonce(ctx), principal, flows }));
  });

  // "New flow" (operator): the editor opens on a starter graph for an id no flow has yet; nothing is saved before the editor saves.
  router.post('/flows', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('saveFlowDraft'));
    if (!principal) return;
    const field = await readForm(ctx);
    const id = field('id').trim();
    const refuse = async (status: number, error: string) => {
      const { flows } = await call(ctx, principal, 'listFlows', {});
      send(ctx, status, flowsPage({ nonce: cspNonce(ctx), principal, flows, newId: id, error }));
    };
    if (!/^[a-z0-9][a-z0-9_-]{0,99}$/.test(id)) return refuse(400, 'A flow id is 1 to 100 of a-z, 0-9, _ and -, starting with a letter or digit.');
    const { flows } = await call(ctx, principal, 'listFlows', {});
    if (flows.some((f) => f.id === id)) return refuse(409, `A flow ${id} exists already: open it from the list to edit its draft.`);
    seeOther(ctx, `/flows/${encodeURIComponent(id)}/edit`);
  });

  async function renderFlow(ctx: Context, principal: Principal, id: string, status: number, extra: { error?: string; ok?: string } = {}) {
    const detail = await call(ctx, principal, 'getFlow', { id });
    const asked = Number(ctx.query.version);
    const chosen = detail.versions.find((v) => v.version === asked) ?? detail.versions.at(-1) ?? null;
    const { nodeTypes } = await call(ctx, principal, 'listNodeTypes', {});
    const describe = new Map(nodeTypes.map((t) => [t.type, t.description]));
    const graphNodes = ((chosen?.graph as { nodes?: { id: string; type: string; label?: string }[] } | null)?.nodes ?? []).map((n) => ({
      id: n.id,
      type: n.type,
      label: n.label ?? n.id,
      description: describe.get(n.type) ?? 'Not in the node catalogue.',
    }));
    // Both drawings are cached by content: viewing the page again lays nothing out again. A draft that is the latest
    // version unchanged is neither drawn a second time nor offered for publishing.
    const caller = callerKey(principal);
    const latest = detail.versions.at(-1);
    const unchanged = latest !== undefined && latest.name === detail.flow.name && canonicalJson(latest.graph) === canonicalJson(detail.draft.graph);
    const draftSvg = unchanged ? null : markProblemNodes(await o.diagrams.draftSvg(detail.flow.id, detail.flow.name, detail.draft.graph, caller), detail.draft.problems);
    const drawable = chosen ? { flowId: detail.flow.id, version: chosen.version, name: chosen.name, graph: chosen.graph } : null;
    let svg: string | null = null;
    let heat = null;
    let error = extra.error;
    let code = status;
    if (drawable && ctx.query.view === 'heat') {
      // The heat view (contract 17): the version's stats over the range asked for, drawn on the same layout.
      const range = heatRange({ range: one(ctx.query.range), from: one(ctx.query.from), to: one(ctx.query.to) }, o.clock.now());
      try {
        const stats = await call(ctx, principal, 'getFlowStats', { id: drawable.flowId, version: drawable.version, from: range.from, to: range.to });
        const { heat: marks, legend } = heatOf(stats);
        svg = await o.diagrams.heatSvg(drawable, marks, caller);
        heat = heatParts({ flowId: drawable.flowId, version: drawable.version, range, stats, legend, labels: new Map(graphNodes.map((n) => [n.id, n.label])) });
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        error = `Not shown: ${err.issues.map((i) => i.message).join('; ') || err.message}.`;
        code = 400;
      }
    }
    svg ??= drawable ? await o.diagrams.svg(drawable, caller) : null;
    const pathsOf = chosen ? `version ${chosen.version}` : 'the draft';
    let paths: FlowPathsView;
    try {
      paths = { of: pathsOf, ...(await call(ctx, principal, 'getFlowPaths', chosen ? { id, version: chosen.version } : { id })) };
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind !== 'invalid_input') throw err;
      paths = { of: pathsOf, error: 'The draft has problems to fix first: a graph with problems has no paths.' };
    }
    send(
      ctx,
      code,
      flowPage({
        nonce: cspNonce(ctx),
        principal,
        flow: detail.flow,
        versions: detail.versions,
        shown: chosen?.version ?? null,
        svg,
        nodes: graphNodes,
        draftSvg,
        problems: detail.draft.problems,
        heat,
        paths,
        move: roleAtLeast(principal.role, roleOf('migrateFlowOrders')) ? await moveOf(ctx, principal, detail, new Set(nodeTypes.filter((t) => t.kind === 'end' || t.kind === 'continue').map((t) => t.type))) : null,
        ...extra,
        error,
      }),
    );
  }

  /**
   * The Move section (contract 15): each published version before the latest with unfinished orders (contract 14's
   * count, one indexed query per version), the later versions it may move to, newest first, and their mapping rows
   * (none for `final` types: an order that reached an End has ended).
   */
  async function moveOf(ctx: Context, principal: Principal, detail: OperationOutput<'getFlow'>, final: ReadonlySet<string>): Promise<MoveSectionView> {
    const versions = detail.versions;
    const latest = versions.at(-1);
    const older = latest ? versions.filter((v) => v.version < latest.version) : [];
    const counted = await Promise.all(
      older.map(async (v) => ({ v, live: (await call(ctx, principal, 'getFlowDiff', { id: detail.flow.id, from: v.version, to: latest?.version ?? v.version })).liveOrders })),
    );
    const sources: MoveSourceView[] = counted
      .filter((c) => c.live.total > 0)
      .map(({ v, live }) => ({
        version: v.version,
        liveOrders: live.total,
        atNode: live.atNode,
        targets: versions
          .filter((t) => t.version > v.version)
          .reverse()
          .map((t) => ({ version: t.version, rows: mappingRows(v.graph, t.graph, final) })),
      }));
    return { flowId: detail.flow.id, sources, ratePerSecond: DEFAULT_BATCH_RATE };
  }

  router.get('/flows/:id', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    await guarded(ctx, principal, () => renderFlow(ctx, principal, ctx.params.id, 200, ctx.query.published ? { ok: `Published as version ${String(ctx.query.version)}.` } : {}));
  });

  router.post('/flows/:id/publish', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('publishFlow'));
    if (!principal) return;
    await readForm(ctx);
    const id = ctx.params.id;
    await guarded(ctx, principal, async () => {
      try {
        const { version } = await call(ctx, principal, 'publishFlow', { id });
        seeOther(ctx, `/flows/${encodeURIComponent(id)}?version=${version}&published=1`);
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== 'invalid_input') throw err;
        await renderFlow(ctx, principal, id, 400, { error: err.message });
      }
    });
  });

  type FlowDetail = OperationOutput<'getFlow'>;

  /** The flow as saved, or null when there is none yet (the editor then creates it); a malformed id is getFlow's 400. */
  async function savedFlow(ctx: Context, principal: Principal, id: string): Promise<FlowDetail | null> {
    try {
      return await call(ctx, principal, 'getFlow', { id });
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  /**
   * The editor over `graphText` as typed: checked and drawn when it parses as a graph. Past the caller's new-drawing
   * limit the page is still answered (it may follow a save) with the problems and a note instead of the drawing.
   */
  /** The catalogue's step types (fixed for the life of the process): the editor's on-failure form lists their nodes. */
  const stepTypes = o.catalogue.list().filter((d) => d.kind === 'step').map((d) => d.type);

  async function renderEditor(ctx: Context, principal: Principal, status: number, id: string, flow: FlowDetail | null, form: { name: string; description: string; graphText: string }, extra: { error?: string; ok?: string } = {}) {
    let graph: unknown = null;
    try {
      graph = JSON.parse(form.graphText);
    } catch {
      /* shown as the error the caller passes */
    }
    const isGraph = typeof graph === 'object' && graph !== null && Array.isArray((graph as { nodes?: unknown }).nodes) && Array.isArray((graph as { edges?: unknown }).edges);
    const analysis = isGraph ? analyseGraph(graph, o.catalogue) : null;
    const problems = analysis?.problems ?? [];
    let svg = '';
    let drawingNote: string | undefined;
    if (isGraph) {
      try {
        svg = markProblemNodes(await o.diagrams.draftSvg(id, form.name || id, graph, callerKey(principal), analysis ?? undefined), problems);
      } catch (err) {
        if (!(err instanceof DomainError) || err.kind !== 'throttled') throw err;
        drawingNote = `Not drawn: ${err.message}.`;
      }
    }
    const [simulate, impact] = await Promise.all([simulatePanel(ctx, principal, id, flow, analysis), impactOf(ctx, principal, id, flow)]);
    send(
      ctx,
      status,
      flowEditorPage({ nonce: cspNonce(ctx), principal, flowId: id, ...form, publishedVersion: flow?.flow.publishedVersion ?? null, problems, svg, drawingNote, isNew: flow === null, stepTypes, simulate, impact, ...extra }),
    );
  }

  /** The simulate panel's starting point: a sample input for the flow's model, recent orders of the flow, the graph's steps. */
  async function simulatePanel(ctx: Context, principal: Principal, id: string, flow: FlowDetail | null, analysis: ReturnType<typeof analyseGraph> | null): Promise<SimulatePanelView> {
    const [{ products }, recent] = await Promise.all([
      call(ctx, principal, 'listProducts', {}),
      flow ? call(ctx, principal, 'listOrders', { flowId: id, limit: 10 }) : Promise.resolve({ orders: [] }),
    ]);
    const steps = [...(analysis?.nodes.values() ?? [])].filter((n) => n.def.kind === 'step').map((n) => ({ id: n.node.id, label: n.node.label ?? n.node.id }));
    return {
      inputText: JSON.stringify(sampleInput(flow?.flow ?? null, products), null, 2),
      recentOrders: recent.orders.map((r) => ({ id: r.id, title: r.title, status: r.status })),
      steps,
      stepTypes: o.catalogue.list().filter((d) => d.kind === 'step').map((d) => d.type),
    };
  }

  /** The Impact panel: the saved draft against the latest published version, with the live orders at each node it touches. */
  async function impactOf(ctx: Context, principal: Principal, id: string, flow: FlowDetail | null): Promise<ImpactView | null> {
    if (!flow || flow.flow.publishedVersion === null) return null;
    const diff = await call(ctx, principal, 'getFlowDiff', { id });
    const at = (nodeId: string) => diff.liveOrders.atNode[nodeId] ?? 0;
    return {
      from: diff.from,
      total: diff.liveOrders.total,
      rows: [
        ...diff.nodes.removed.map((nodeId) => ({ nodeId, change: 'removed' as const, fields: [], liveOrders: at(nodeId) })),
        ...diff.nodes.changed.map((c) => ({ nodeId: c.id, change: 'changed' as const, fields: c.fields, liveOrders: at(c.id) })),
        ...diff.nodes.added.map((nodeId) => ({ nodeId, change: 'added' as const, fields: [], liveOrders: 0 })),
      ],
      edges: { added: diff.edges.added.length, removed: diff.edges.removed.length },
    };
  }

  router.get('/flows/:id/edit', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('saveFlowDraft'));
    if (!principal) return;
    const id = ctx.params.id;
    await guarded(ctx, principal, async () => {
      const flow = await savedFlow(ctx, principal, id);
      const text = graphText(flow?.draft.graph ?? STARTER_GRAPH);
      await renderEditor(ctx, principal, 200, id, flow, { name: flow?.flow.name ?? '', description: flow?.flow.description ?? '', graphText: text }, ctx.query.saved ? { ok: 'Draft saved.' } : {});
    });
  });

  router.post('/flows/:id/edit', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('saveFlowDraft'));
    if (!principal) return;
    const field = await readForm(ctx);
    const id = ctx.params.id;
    const form = { name: field('name').trim(), description: field('description').trim(), graphText: field('graph') };
    await guarded(ctx, principal, async () => {
      const flow = await savedFlow(ctx, principal, id);
      let graph: unknown;
      try {
        graph = JSON.parse(form.graphText);
      } catch (err) {
        return renderEditor(ctx, principal, 400, id, flow, form, { error: `Not saved: the graph is not JSON (${(err as Error).message}).` });
      }
      let problems: { nodeId?: string; message: string }[];
      try {
        const saved = await callRaw(ctx, principal, 'saveFlowDraft', {
          id,
          name: form.name,
          description: form.description || null,
          ...(flow ? { model: flow.flow.model, channels: flow.flow.channels } : {}),
          graph,
        });
        problems = saved.problems;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        const issues = err instanceof ValidationError ? ` ${err.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}` : '';
        return renderEditor(ctx, principal, HTTP_STATUS[err.kind] ?? 400, id, flow, form, { error: `Not saved: ${err.message}.${issues}` });
      }
      if (field('intent') !== 'publish') return seeOther(ctx, `/flows/${encodeURIComponent(id)}/edit?saved=1`);
      if (problems.length) return renderEditor(ctx, principal, 400, id, await savedFlow(ctx, principal, id), form, { error: `Saved, not published: ${problems.length} problem${problems.length === 1 ? '' : 's'} to fix first.` });
      const { version } = await call(ctx, principal, 'publishFlow', { id });
      seeOther(ctx, `/flows/${encodeURIComponent(id)}?version=${version}&published=1`);
    });
  });

  /** The back office as the person may see it, with a notice; bad filters fall back to all payouts. */
  async function renderBackOffice(ctx: Context, principal: Principal, status: number, extra: { error?: string; ok?: string } = {}) {
    const raw = one(ctx.query.payouts) ?? 'all';
    const payoutFilter = (PAYOUT_FILTERS as readonly string[]).includes(raw) ? (raw as PayoutFilter) : 'all';
    const [{ sellers }, { payouts }, { products }] = await Promise.all([
      call(ctx, principal, 'listSellers', {}),
      call(ctx, principal, 'listPayouts', payoutFilter === 'all' ? {} : { status: payoutFilter }),
      call(ctx, principal, 'listProducts', {}),
    ]);
    const error = extra.error ?? (raw === payoutFilter ? undefined : `Unknown payout status ${raw}: showing all.`);
    send(ctx, raw === payoutFilter ? status : 400, backOfficePage({ nonce: cspNonce(ctx), principal, sellers, payouts, payoutFilter, products, error, ok: extra.ok }));
  }

  router.get('/back-office', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx);
    if (!principal) return;
    const paid = one(ctx.query.paid)?.match(/^[A-Za-z0-9_-]{1,100}$/)?.[0];
    const reviewed = one(ctx.query.reviewed);
    const ok = paid ? `Payout ${paid} marked paid.` : reviewed !== undefined ? reviewNotice(reviewed, one(ctx.query.open)) : undefined;
    await renderBackOffice(ctx, principal, 200, ok ? { ok } : {});
  });

  router.post('/back-office/payouts/:id/paid', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('markPayoutPaid'));
    if (!principal) return;
    await readForm(ctx);
    const id = ctx.params.id;
    try {
      await call(ctx, principal, 'markPayoutPaid', { id });
      seeOther(ctx, `/back-office?paid=${encodeURIComponent(id)}#payouts-h`);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await renderBackOffice(ctx, principal, HTTP_STATUS[err.kind] ?? 400, { error: err.message });
    }
  });

  router.post('/back-office/stock-review', async (ctx) => {
    const principal = await pagePrincipal(o.auth, ctx, roleOf('runStockReview'));
    if (!principal) return;
    await readForm(ctx);
    try {
      const r = await call(ctx, principal, 'runStockReview', {});
      if (r.skipped) return await renderBackOffice(ctx, principal, 200, { error: `Nothing started: ${r.skipped}.` });
      seeOther(ctx, `/back-office?reviewed=${r.reorders.length}&open=${r.alreadyOpen.length}#stock-h`);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      await renderBackOffice(ctx, principal, HTTP_STATUS[err.kind] ?? 400, { error: err.message });
    }
  });

  return router;
}

/** A creation bound as typed: epoch ms as they are, a date or date-time (UTC unless it says otherwise) as its epoch ms; anything else as typed (the list refuses it). */
function epochMs(value: string | undefined): string | undefined {
  if (value === undefined || /^\d+$/.test(value)) return value;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isFinite(ms) ? String(ms) : value;
}

/** The list's filter as a batch body takes it (numbers as JSON numbers), once the list accepted it. */
function batchFilter(filters: OrdersFilters): Record<string, unknown> {
  const numeric = new Set(['flowVersion', 'createdAfter', 'createdBefore']);
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, numeric.has(k) ? Number(v) : v]));
}

/** The stock review's outcome from the redirect's counts (numbers only, so the query cannot put words on the page). */
function reviewNotice(started: string, open: string | undefined): string {
  const n = Number.parseInt(started, 10) || 0;
  const already = Number.parseInt(open ?? '0', 10) || 0;
  return `Stock review done: ${n} reorder${n === 1 ? '' : 's'} started${already ? `, ${already} already on order` : ''}.`;
}
