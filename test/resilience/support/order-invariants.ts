// What must hold for every marketplace order after any failure: its outcome, its bookkeeping, its events.
// Each check returns readable violations (empty = the rule holds), so a failing run names the orders.
import type { DbProbe } from './db-probe.js';
import { expectedOutcome, planLines, THIRD_PARTY, type OrderPlan } from './marketplace-load.js';
import type { ReceivedDelivery } from './webhook-recorder.js';

const SKU_OF: Record<string, string> = { seller_acme: 'PAN-CAST-10', seller_bolt: 'TENT-2P' };

type Grouped<T> = Map<string, T[]>;
function groupBy<T extends { order_id: string }>(rows: T[]): Grouped<T> {
  const m: Grouped<T> = new Map();
  for (const r of rows) m.set(r.order_id, [...(m.get(r.order_id) ?? []), r]);
  return m;
}

/**
 * Per order: the planned outcome; one seller order per seller; at most one capture (exactly one when
 * completed) and one authorization; one payout per accepted third-party seller; reservations balance
 * (reserved = shipped + released, shipped = what the shipments carry); each expected outbox event once.
 */
export async function marketplaceViolations(db: DbProbe, plans: readonly OrderPlan[]): Promise<string[]> {
  const out: string[] = [];
  const ids = plans.map((p) => p.orderId).filter((id): id is string => Boolean(id));
  if (ids.length !== plans.length) out.push(`${plans.length - ids.length} plans have no order id`);
  const q = <R = any>(sql: string) => db<R & { order_id: string }>(sql, [ids]);

  const orders = new Map((await q<{ status: string; reason: string | null; started: boolean }>(
    'SELECT id AS order_id, status, reason, started FROM orders WHERE id = ANY($1)',
  )).map((r) => [r.order_id, r]));
  const started = groupBy(await q("SELECT order_id FROM order_timeline WHERE order_id = ANY($1) AND kind = 'order.started'"));
  const sellerOrders = groupBy(await q<{ seller_id: string | null; status: string; reason: string | null }>(
    'SELECT order_id, seller_id, status, reason FROM seller_orders WHERE order_id = ANY($1)',
  ));
  const auths = groupBy(await q<{ status: string }>('SELECT order_id, status FROM payment_authorizations WHERE order_id = ANY($1)'));
  const captures = groupBy(await q("SELECT order_id FROM payment_charges WHERE order_id = ANY($1) AND kind = 'capture'"));
  const payouts = groupBy(await q<{ seller_id: string }>('SELECT order_id, seller_id FROM payouts WHERE order_id = ANY($1)'));
  const reservations = groupBy(await q<{ sku: string; qty: number; status: string }>(
    'SELECT order_id, sku, qty, status FROM stock_reservations WHERE order_id = ANY($1)',
  ));
  const shipped = groupBy(await q<{ sku: string; qty: number }>(
    `SELECT s.order_id, l->>'sku' AS sku, (l->>'qty')::int AS qty
       FROM shipments s, jsonb_array_elements(s.lines) l WHERE s.order_id = ANY($1) AND s.status = 'shipped'`,
  ));
  const events = groupBy(await q<{ event: string }>('SELECT order_id, event FROM outbox WHERE order_id = ANY($1)'));

  for (const plan of plans) {
    const id = plan.orderId;
    if (!id) continue;
    const tag = `${plan.key} (${id})`;
    const expected = expectedOutcome(plan);
    const order = orders.get(id);
    if (!order) {
      out.push(`${tag}: order row missing`);
      continue;
    }
    if (order.status !== expected.status || order.reason !== expected.reason)
      out.push(`${tag}: ${order.status} (${order.reason}), expected ${expected.status} (${expected.reason})`);
    if ((started.get(id) ?? []).length !== 1) out.push(`${tag}: started ${(started.get(id) ?? []).length} times`);

    const reviewed = expected.status !== 'declined';
    const so = sellerOrders.get(id) ?? [];
    const sellersExpected = reviewed ? [...THIRD_PARTY, ...(plan.firstParty ? [null] : [])] : [];
    for (const s of sellersExpected) {
      const n = so.filter((r) => r.seller_id === s).length;
      if (n !== 1) out.push(`${tag}: ${n} seller orders for ${s ?? 'first party'}`);
    }
    if (so.length !== sellersExpected.length) out.push(`${tag}: ${so.length} seller orders, expected ${sellersExpected.length}`);
    if (reviewed)
      for (const s of THIRD_PARTY) {
        const row = so.find((r) => r.seller_id === s);
        const want = plan.sellers[s] === 'accepted' ? 'accepted' : 'rejected';
        if (row && row.status !== want && !(expected.status === 'failed' && row.status === 'cancelled'))
          out.push(`${tag}: seller order ${s} ${row.status}, planned ${plan.sellers[s]}`);
        if (row && plan.sellers[s] === 'silent' && row.reason !== 'No response') out.push(`${tag}: silent ${s} has reason ${row.reason}`);
      }

    const authCount = (auths.get(id) ?? []).length;
    if (authCount !== (reviewed ? 1 : 0)) out.push(`${tag}: ${authCount} authorizations`);
    const captureCount = (captures.get(id) ?? []).length;
    if (captureCount !== (expected.status === 'completed' ? 1 : 0)) out.push(`${tag}: ${captureCount} captures`);
    const paid = (payouts.get(id) ?? []).map((p) => p.seller_id).sort();
    const wantPaid = expected.status === 'completed' ? [...expected.accepted].sort() : [];
    if (JSON.stringify(paid) !== JSON.stringify(wantPaid)) out.push(`${tag}: payouts to [${paid}], expected [${wantPaid}]`);

    // Reservations balance: everything reserved was shipped or released; shipped = what shipments carry.
    const res = reservations.get(id) ?? [];
    const sum = (rows: { qty: number }[]) => rows.reduce((n, r) => n + Number(r.qty), 0);
    const held = res.filter((r) => r.status === 'reserved');
    if (held.length) out.push(`${tag}: ${sum(held)} units still reserved after the order finished`);
    const consumed = res.filter((r) => r.status === 'consumed');
    const released = res.filter((r) => r.status === 'released');
    if (sum(res) !== sum(consumed) + sum(released)) out.push(`${tag}: reserved ${sum(res)} != shipped ${sum(consumed)} + released ${sum(released)}`);
    const bySku = (rows: { sku: string; qty: number }[]) =>
      JSON.stringify(Object.entries(rows.reduce<Record<string, number>>((m, r) => ({ ...m, [r.sku]: (m[r.sku] ?? 0) + Number(r.qty) }), {})).sort());
    if (bySku(consumed) !== bySku(shipped.get(id) ?? [])) out.push(`${tag}: consumed ${bySku(consumed)} but shipped ${bySku(shipped.get(id) ?? [])}`);
    if (expected.status === 'completed') {
      const wantShipped = planLines(plan).filter((l) => l.sku === 'MUG-1' || expected.accepted.some((s) => SKU_OF[s] === l.sku));
      if (bySku(consumed) !== bySku(wantShipped)) out.push(`${tag}: shipped ${bySku(consumed)}, expected ${bySku(wantShipped)}`);
    } else if (consumed.length) out.push(`${tag}: ${expected.status} order shipped goods`);

    // Each expected outbox event exactly once, nothing else.
    const got = (events.get(id) ?? []).map((e) => e.event).sort();
    const want = (
      expected.status === 'completed'
        ? ['order.paid', 'order.shipped', 'order.completed', ...(expected.accepted.length ? ['order.payout_scheduled'] : [])]
        : [`order.${expected.status}`]
    ).sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) out.push(`${tag}: outbox [${got}], expected [${want}]`);
  }
  return out;
}

/** Global stock: `reserved` equals the units held by open reservations; on hand fell by exactly what shipped. */
export async function stockViolations(db: DbProbe, initialOnHand: Record<string, number>): Promise<string[]> {
  const out: string[] = [];
  const rows = await db<{ sku: string; location_id: string; on_hand: number; reserved: number; held: number; consumed: number; restocked: number }>(
    `SELECT l.sku, l.location_id, l.on_hand, l.reserved,
            coalesce(sum(r.qty) FILTER (WHERE r.status = 'reserved'), 0)::int AS held,
            coalesce(sum(r.qty) FILTER (WHERE r.status = 'consumed'), 0)::int AS consumed,
            coalesce(sum(r.qty) FILTER (WHERE r.status = 'restocked'), 0)::int AS restocked
       FROM stock_levels l LEFT JOIN stock_reservations r ON r.sku = l.sku AND r.location_id = l.location_id
      WHERE l.sku = ANY($1) GROUP BY l.sku, l.location_id, l.on_hand, l.reserved`,
    [Object.keys(initialOnHand)],
  );
  for (const r of rows) {
    const where = `${r.sku}@${r.location_id}`;
    if (r.reserved !== r.held) out.push(`${where}: reserved ${r.reserved} but open reservations hold ${r.held}`);
    if (r.on_hand !== initialOnHand[r.sku] - r.consumed) out.push(`${where}: on hand ${r.on_hand}, expected ${initialOnHand[r.sku]} - ${r.consumed} shipped`);
  }
  return out;
}

export interface DeliveryReport {
  violations: string[];
  deliveries: number;
  received: number;
  /** Delivery ids received more than once (allowed: at-least-once; they must carry the same id and bytes). */
  duplicated: number;
}

/**
 * Every outbox row of the orders was dispatched and delivered to the subscription at least once;
 * each copy received carries the delivery id in header and body and the same bytes; nothing was
 * received that the database does not know. `received`: what the subscription's receiver path got.
 */
export async function deliveryViolations(db: DbProbe, orderIds: string[], subscriptionId: string, received: ReceivedDelivery[]): Promise<DeliveryReport> {
  const out: string[] = [];
  const undispatched = await db<{ n: number }>('SELECT count(*)::int AS n FROM outbox WHERE order_id = ANY($1) AND dispatched_at IS NULL', [orderIds]);
  if (undispatched[0].n) out.push(`${undispatched[0].n} outbox rows never dispatched`);
  const rows = await db<{ outbox_id: string; id: string | null; status: string | null; event: string }>(
    `SELECT o.id AS outbox_id, d.id, d.status, o.event FROM outbox o
       LEFT JOIN webhook_deliveries d ON d.outbox_id = o.id AND d.subscription_id = $2
      WHERE o.order_id = ANY($1)`,
    [orderIds, subscriptionId],
  );
  const byId = new Map<string, ReceivedDelivery[]>();
  for (const r of received) byId.set(r.deliveryId, [...(byId.get(r.deliveryId) ?? []), r]);
  const known = new Set<string>();
  for (const r of rows) {
    if (!r.id) {
      out.push(`outbox ${r.outbox_id} (${r.event}): no delivery`);
      continue;
    }
    known.add(r.id);
    if (r.status !== 'delivered') out.push(`delivery ${r.id} (${r.event}): ${r.status}`);
    const copies = byId.get(r.id) ?? [];
    if (copies.length === 0) out.push(`delivery ${r.id} (${r.event}): never received`);
    if (copies.some((c) => c.bodyId !== r.id)) out.push(`delivery ${r.id}: a copy carries body id ${copies.find((c) => c.bodyId !== r.id)?.bodyId}`);
    if (new Set(copies.map((c) => c.bodyHash)).size > 1) out.push(`delivery ${r.id}: copies differ in their bytes`);
  }
  const ours = new Set(orderIds);
  for (const id of byId.keys()) if (!known.has(id) && ours.has(byId.get(id)![0].orderId ?? '')) out.push(`received ${id}, unknown to the database`);
  const duplicated = [...byId.entries()].filter(([id, copies]) => known.has(id) && copies.length > 1).length;
  return { violations: out, deliveries: rows.length, received: received.length, duplicated };
}

/**
 * At rest (nothing in flight) every order is in a state it can leave: finished with nothing open, or
 * waiting on an open wait (a timed wait with its pending timer), or running with a pending step retry.
 */
export async function restingViolations(db: DbProbe, orderIds: string[]): Promise<string[]> {
  const rows = await db<{ id: string; status: string; started: boolean; open_waits: number; timed_open: number; pending_timers: number }>(
    `SELECT o.id, o.status, o.started,
            (SELECT count(*)::int FROM order_waits w WHERE w.order_id = o.id AND w.status = 'open') AS open_waits,
            (SELECT count(*)::int FROM order_waits w JOIN timers t ON t.id = w.timer_id
              WHERE w.order_id = o.id AND w.status = 'open' AND t.fired_at IS NULL AND t.cancelled_at IS NULL) AS timed_open,
            (SELECT count(*)::int FROM timers t WHERE t.order_id = o.id AND t.fired_at IS NULL AND t.cancelled_at IS NULL) AS pending_timers
       FROM orders o WHERE o.id = ANY($1)`,
    [orderIds],
  );
  const out: string[] = [];
  if (rows.length !== orderIds.length) out.push(`${orderIds.length - rows.length} orders missing`);
  for (const r of rows) {
    const finished = ['completed', 'declined', 'failed', 'cancelled', 'rolled_back'].includes(r.status);
    if (!r.started) out.push(`${r.id}: recorded but never started`);
    else if (finished && (r.open_waits > 0 || r.pending_timers > 0)) out.push(`${r.id}: ${r.status} with ${r.open_waits} open waits, ${r.pending_timers} pending timers`);
    else if (r.status === 'waiting' && (r.open_waits === 0 || r.timed_open === 0)) out.push(`${r.id}: waiting on ${r.open_waits} waits, ${r.timed_open} of them timed`);
    else if (r.status === 'running' && r.pending_timers === 0) out.push(`${r.id}: running with no pending timer`);
    else if (!finished && !['waiting', 'running'].includes(r.status)) out.push(`${r.id}: at rest in status ${r.status}`);
  }
  return out;
}
