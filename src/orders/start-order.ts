// Starting an order: the idempotency claim, validation against the workspace, the order row, its documents,
// then the first run slice (spec "Start an order").
import type { Db, Queryable } from '../db/db.js';
import type { Clock } from '../engine/clock.js';
import type { Engine } from '../engine/engine-module.js';
import { insertOrder, newOrderId, type NewOrderLine } from './new-order.js';
import type { OrderInput } from '../domain/order-input-schema.js';
import { fxRate } from '../domain/fx.js';
import { toMinor } from '../domain/money.js';
import { computeTotals } from '../domain/order-totals.js';
import { readCommerceSettings } from '../commerce/workspace-settings.js';
import { claimIdempotencyKey, type IdempotencyClaim } from './idempotency.js';
import { resolvePublishedVersion } from './flow-version.js';
import { storeOrderDocument } from './order-documents.js';

export interface OrderServiceDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

/** What a start asks for (the validated POST /api/v1/orders body, or a channel's equivalent). */
export interface StartOrderCommand {
  flowId: string;
  /** A published version to pin; default the latest published. */
  version?: number;
  input: OrderInput;
  vars?: Record<string, unknown>;
}

export interface StartOrderOptions {
  /** Who started it (`principal.actor`), kept with the order. */
  startedBy: string;
  idempotency?: IdempotencyClaim | null;
  /** The finished order this one restarts. */
  restartedFrom?: string | null;
  /** Documents to copy onto the new order instead of `input.documentText` (restart). */
  copyDocumentsFrom?: string | null;
}

export interface StartOrderOutcome {
  orderId: string;
  /** True when the idempotency key named an order recorded earlier. */
  replayed: boolean;
}

/**
 * Records the order (row, lines, inbound document, start vars) in one transaction and then
 * runs its first slice. With an idempotency claim the key is taken first, so a racing request
 * with the same key waits for this transaction and then replays its order; a repeat of a
 * request whose first try recorded the order but failed before starting it finishes the
 * start (`runtime.start` is idempotent).
 */
export async function startOrder(deps: OrderServiceDeps, cmd: StartOrderCommand, options: StartOrderOptions): Promise<StartOrderOutcome> {
  const orderId = newOrderId();
  const outcome = await deps.db.tx(async (tx): Promise<StartOrderOutcome> => {
    if (options.idempotency) {
      const claim = await claimIdempotencyKey(tx, options.idempotency, orderId, deps.clock.now());
      if (!claim.claimed) return { orderId: claim.orderId, replayed: true };
    }
    await recordOrder(tx, deps, orderId, cmd, options);
    return { orderId, replayed: false };
  });
  await deps.engine.runtime.start(outcome.orderId);
  return outcome;
}

/** Writes the order row and everything that belongs to it; throws 409 / 400 before writing anything. */
async function recordOrder(tx: Queryable, deps: OrderServiceDeps, orderId: string, cmd: StartOrderCommand, options: StartOrderOptions): Promise<void> {
  const flowVersion = await resolvePublishedVersion(tx, deps.engine.flows, cmd.flowId, cmd.version);
  const settings = await readCommerceSettings(tx);
  const { input } = cmd;
  const rate = fxRate(input.currency, settings.exchangeRates);
  const lines: NewOrderLine[] = (input.lines ?? []).map((l) => ({
    sku: l.sku,
    name: l.name ?? null,
    qty: l.qty,
    unitPriceMinor: l.unitPrice === undefined ? null : toMinor(l.unitPrice, input.currency),
    sellerId: l.sellerId ?? null,
    locationId: l.locationId ?? null,
  }));
  // Totals from the prices given; the flow's price step fills the missing ones and re-totals.
  const totals = computeTotals(
    lines.filter((l) => l.unitPriceMinor !== null).map((l) => ({ unitPriceMinor: l.unitPriceMinor!, qty: l.qty })),
    settings.taxRate,
  );
  // The document text lives in order_documents, not in every read of the order.
  const { documentText, ...stored } = input;
  const now = deps.clock.now();
  await insertOrder(
    tx,
    {
      id: orderId,
      flowId: cmd.flowId,
      flowVersion,
      model: input.model,
      channel: input.channel,
      externalId: input.externalId ?? null,
      title: input.title ?? null,
      customerId: input.customerId ?? null,
      contactEmail: input.contact?.email ?? null,
      currency: input.currency,
      fxRate: rate,
      subtotalMinor: totals.subtotal,
      taxMinor: totals.tax,
      totalMinor: totals.total,
      input: stored as Record<string, unknown>,
      meta: (input.meta ?? {}) as Record<string, unknown>,
      vars: cmd.vars ?? {},
      lines,
      restartedFrom: options.restartedFrom ?? null,
    },
    now,
  );
  if (documentText !== undefined)
    await storeOrderDocument(tx, { orderId, kind: 'inbound', name: 'inbound.txt', contentType: 'text/plain; charset=utf-8', body: documentText }, now);
  if (options.copyDocumentsFrom)
    await tx.query(
      `INSERT INTO order_documents (id, order_id, kind, name, content_type, body, created_at)
       SELECT 'doc_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 24), $1, kind, name, content_type, body, $3 FROM order_documents WHERE order_id = $2`,
      [orderId, options.copyDocumentsFrom, now],
    );
  await tx.query('INSERT INTO order_origins (order_id, start_vars, started_by, created_at) VALUES ($1, $2, $3, $4)', [
    orderId,
    JSON.stringify(cmd.vars ?? {}),
    options.startedBy,
    now,
  ]);
}
