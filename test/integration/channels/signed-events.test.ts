// POST /api/v1/webhooks/events: signature rules row by row, rotation overlap on the test clock, scope, visibility,
// replay receipts and 409 retries (spec "Signed events route", "Integrations", "Errors"; contract section 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { signRequest } from '../../../src/channels/signed/signature-header.js';
import {
  count,
  createIntegration,
  graphs,
  publishFlow,
  sendSigned,
  signBody,
  signed,
  startChannelsService,
  type TestIntegration,
} from './channels-support.js';

const EVENTS = '/api/v1/webhooks/events';
const DAY = 24 * 60 * 60 * 1000;

let t: TestService;
let starter: TestIntegration;
let seller: TestIntegration;
let seq = 0;

beforeAll(async () => {
  t = await startChannelsService();
  await publishFlow(t, 'two-waits', graphs.twoWaits);
  await publishFlow(t, 'delayed-wait', graphs.delayedWait);
  starter = await createIntegration(t, { name: 'starter', startOrders: true, flows: ['*'] });
  seller = await createIntegration(t, { name: 'seller portal', events: ['seller.responded'] });
});
afterAll(async () => {
  await t?.close();
});

/** Starts an order on `flowId` through the signed orders route; returns its id. */
async function startOrder(flowId = 'two-waits', channel = 'web'): Promise<string> {
  seq += 1;
  const res = await signed(t, '/api/v1/webhooks/orders', starter, {
    model: 'b2c', channel, externalId: `ev-${seq}-${Date.now()}`, flowId, lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 12.5 }],
  });
  if (res.status !== 201) throw new Error(`start: ${res.status} ${res.text}`);
  return res.body.orderId;
}

const answer = (orderId: string, extra: Record<string, unknown> = {}) => ({
  orderId, event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' }, ...extra,
});

const state = async (orderId: string) => (await t.call('GET', `/api/v1/orders/${orderId}`)).body;
const now = () => t.service.ctx.clock.now();

describe('a valid signed event', () => {
  it('200 { delivered: true, nodeId }; the payload reaches vars; lastUsedAt is set', async () => {
    const orderId = await startOrder();
    const res = await signed(t, EVENTS, seller, answer(orderId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ delivered: true, nodeId: 'first' });
    const s = await state(orderId);
    expect(s.vars.seller_responded).toMatchObject({ sellerId: 'seller_acme', decision: 'accepted', event: 'seller.responded' });
    expect(s.waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['second']);
    const row = (await t.call('GET', '/api/v1/integrations')).body.integrations.find((i: { id: string }) => i.id === seller.id);
    expect(row.lastUsedAt).toBeGreaterThan(0);
  });

  it('a timestamp 4 minutes old or ahead is still inside the 5-minute window', async () => {
    for (const skew of [-240_000, 240_000]) {
      const orderId = await startOrder();
      expect((await signed(t, EVENTS, seller, answer(orderId), { at: now() + skew })).status).toBe(200);
    }
  });
});

describe('401 cases, row by row (nothing is delivered)', () => {
  let orderId: string;
  beforeAll(async () => {
    orderId = await startOrder();
  });

  const expect401 = async (req: { raw: string; header: string | null }, message: RegExp) => {
    const res = await sendSigned(t, EVENTS, req);
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(message);
    expect((await state(orderId)).waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['first']);
  };

  it('stale: t more than 5 minutes in the past', async () => {
    await expect401(signBody(t, seller, answer(orderId), { at: now() - 301_000 }), /more than 5 minutes/);
  });

  it('future: t more than 5 minutes ahead', async () => {
    await expect401(signBody(t, seller, answer(orderId), { at: now() + 301_000 }), /more than 5 minutes/);
  });

  it('missing k=', async () => {
    const raw = JSON.stringify(answer(orderId));
    const ts = Math.floor(now() / 1000);
    await expect401({ raw, header: `t=${ts},v1=${signRequest(seller.secret, ts, raw)}` }, /k=/);
  });

  it('missing header, missing t=, malformed v1=', async () => {
    const raw = JSON.stringify(answer(orderId));
    const ts = Math.floor(now() / 1000);
    await expect401({ raw, header: null }, /Missing X-Service-Signature/);
    await expect401({ raw, header: `k=${seller.id},v1=${signRequest(seller.secret, ts, raw)}` }, /t=/);
    await expect401({ raw, header: `t=${ts},k=${seller.id},v1=nothex` }, /v1=/);
  });

  it('wrong secret (another integration\'s secret under this k=)', async () => {
    await expect401(signBody(t, seller, answer(orderId), { secret: starter.secret }), /does not match/);
  });

  it('a body changed after signing (the raw bytes are signed)', async () => {
    const req = signBody(t, seller, answer(orderId));
    await expect401({ raw: req.raw.replace('accepted', 'rejected'), header: req.header }, /does not match/);
    // Same JSON, other bytes (whitespace) is another body too.
    await expect401({ raw: ` ${req.raw}`, header: req.header }, /does not match/);
  });

  it('unknown integration', async () => {
    await expect401(signBody(t, { ...seller, id: 'int_000000000000000000000000' }, answer(orderId)), /Unknown or revoked/);
  });

  it('revoked integration (immediately)', async () => {
    const gone = await createIntegration(t, { name: 'revoked', events: ['*'] });
    expect((await t.call('DELETE', `/api/v1/integrations/${gone.id}`)).status).toBe(200);
    await expect401(signBody(t, gone, answer(orderId)), /Unknown or revoked/);
  });
});

describe('rotation overlap (24 hours, test clock)', () => {
  it('old and new secret both verify before 24 h; after 24 h only the new one', async () => {
    const partner = await createIntegration(t, { name: 'rotating', events: ['seller.responded'] });
    const rotated = await t.call('POST', `/api/v1/integrations/${partner.id}/rotate`);
    const fresh = rotated.body.secret as string;
    expect((await signed(t, EVENTS, partner, answer(await startOrder()))).status).toBe(200);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()), { secret: fresh })).status).toBe(200);

    await t.advance(DAY - 60_000);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()))).status).toBe(200);

    await t.advance(2 * 60_000);
    const late = await signed(t, EVENTS, partner, answer(await startOrder()));
    expect(late.status).toBe(401);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()), { secret: fresh })).status).toBe(200);
  });

  it('rotating again replaces the overlap: the secret from before the first rotation stops at once', async () => {
    const partner = await createIntegration(t, { name: 'rotating-twice', events: ['seller.responded'] });
    const second = (await t.call('POST', `/api/v1/integrations/${partner.id}/rotate`)).body.secret as string;
    const third = (await t.call('POST', `/api/v1/integrations/${partner.id}/rotate`)).body.secret as string;
    expect((await signed(t, EVENTS, partner, answer(await startOrder()))).status).toBe(401);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()), { secret: second })).status).toBe(200);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()), { secret: third })).status).toBe(200);
  });

  it('revoking ends the overlap secret too', async () => {
    const partner = await createIntegration(t, { name: 'rotate-then-revoke', events: ['seller.responded'] });
    const fresh = (await t.call('POST', `/api/v1/integrations/${partner.id}/rotate`)).body.secret as string;
    await t.call('DELETE', `/api/v1/integrations/${partner.id}`);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()))).status).toBe(401);
    expect((await signed(t, EVENTS, partner, answer(await startOrder()), { secret: fresh })).status).toBe(401);
  });
});

describe('replays and 409', () => {
  it('the same signed request again: 200 { delivered: true, duplicate: true } and nothing delivered again', async () => {
    const orderId = await startOrder();
    const req = signBody(t, seller, answer(orderId));
    expect((await sendSigned(t, EVENTS, req)).body).toEqual({ delivered: true, nodeId: 'first' });
    const again = await sendSigned(t, EVENTS, req);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ delivered: true, duplicate: true });
    // The second wait for the same event is still open: the copy did not answer it.
    const s = await state(orderId);
    expect(s.status).toBe('waiting');
    expect(s.waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['second']);
    // A new signed request (a new t) is a new delivery.
    const next = await signed(t, EVENTS, seller, answer(orderId), { at: now() + 1000 });
    expect(next.body).toEqual({ delivered: true, nodeId: 'second' });
    expect((await state(orderId)).status).toBe('completed');
  });

  it('racing copies of one signed request deliver once', async () => {
    const orderId = await startOrder();
    const req = signBody(t, seller, answer(orderId));
    const answers = await Promise.all(Array.from({ length: 6 }, () => sendSigned(t, EVENTS, req)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.body.duplicate === undefined)).toHaveLength(1);
    expect(answers.filter((a) => a.body.duplicate === true)).toHaveLength(5);
    expect((await state(orderId)).waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['second']);
  });

  it('409 { delivered: false } when nothing waits yet; not recorded, so the same request succeeds once the wait opens', async () => {
    const payer = await createIntegration(t, { name: 'payments', events: ['payment.received'] });
    const orderId = await startOrder('delayed-wait');
    const req = signBody(t, payer, { orderId, event: 'payment.received', payload: { amount: 12.5 } });
    const early = await sendSigned(t, EVENTS, req);
    expect(early.status).toBe(409);
    expect(early.body).toEqual({ delivered: false });
    expect(await count(t, 'signed_event_receipts WHERE order_id = $1', [orderId])).toBe(0);
    await t.advance(61_000);
    expect((await state(orderId)).waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['pay']);
    const retry = await sendSigned(t, EVENTS, req);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ delivered: true, nodeId: 'pay' });
    expect((await state(orderId)).status).toBe('completed');
    expect((await sendSigned(t, EVENTS, req)).body).toEqual({ delivered: true, duplicate: true });
  });

  it('the receipt commits with the delivery: a receipt exists exactly when the event was delivered', async () => {
    const orderId = await startOrder();
    const req = signBody(t, seller, answer(orderId));
    const signature = /v1=([0-9a-f]{64})/.exec(req.header!)![1];
    expect(await count(t, 'signed_event_receipts WHERE signature = $1', [signature])).toBe(0);
    expect((await sendSigned(t, EVENTS, req)).body).toEqual({ delivered: true, nodeId: 'first' });
    const { rows } = await t.service.ctx.db.query('SELECT state, node_id FROM signed_event_receipts WHERE signature = $1', [signature]);
    expect(rows).toEqual([{ state: 'delivered', node_id: 'first' }]);
    const timeline = await t.service.ctx.db.query(
      "SELECT count(*)::int AS n FROM order_timeline WHERE order_id = $1 AND kind = 'event.received'",
      [orderId],
    );
    expect(timeline.rows[0].n).toBe(1);
  });

  it('a finished order answers 409 too', async () => {
    const orderId = await startOrder();
    await signed(t, EVENTS, seller, answer(orderId));
    await signed(t, EVENTS, seller, answer(orderId), { at: now() + 1000 });
    const res = await signed(t, EVENTS, seller, answer(orderId), { at: now() + 2000 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ delivered: false });
  });
});

describe('scope and visibility', () => {
  it('403 when the integration may not deliver that event (default: none)', async () => {
    const orderId = await startOrder();
    const payer = await createIntegration(t, { name: 'payments only', events: ['payment.received'] });
    const none = await createIntegration(t, { name: 'no events' });
    expect((await signed(t, EVENTS, payer, answer(orderId))).status).toBe(403);
    expect((await signed(t, EVENTS, none, answer(orderId))).status).toBe(403);
    const any = await createIntegration(t, { name: 'any event', events: ['*'] });
    expect((await signed(t, EVENTS, any, answer(orderId))).status).toBe(200);
  });

  it('404 for an unknown order; a channel-bound integration gets the same 404 for an order on another channel', async () => {
    const webOrder = await startOrder('two-waits', 'web');
    const posBound = await createIntegration(t, { name: 'pos only', events: ['*'], channel: 'pos' });
    const unknown = await signed(t, EVENTS, posBound, answer('ord_000000000000000000000000'));
    const hidden = await signed(t, EVENTS, posBound, answer(webOrder));
    expect(unknown.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(unknown.body);
    expect((await state(webOrder)).waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['first']);
    const posOrder = await startOrder('two-waits', 'pos');
    expect((await signed(t, EVENTS, posBound, answer(posOrder))).body).toEqual({ delivered: true, nodeId: 'first' });
  });
});

describe('body rules (after the signature)', () => {
  it('400 with issues: event over 100 characters, payload over 32 KiB, unknown field, no orderId; invalid JSON is 400', async () => {
    const orderId = await startOrder();
    const any = await createIntegration(t, { name: 'any', events: ['*'] });
    const cases: [Record<string, unknown>, string][] = [
      [{ orderId, event: 'e'.repeat(101) }, 'event'],
      [{ orderId, event: 'seller.responded', payload: { blob: 'x'.repeat(33 * 1024) } }, 'payload'],
      [{ orderId, event: 'seller.responded', extra: 1 }, ''],
      [{ event: 'seller.responded' }, 'orderId'],
    ];
    for (const [body, path] of cases) {
      const res = await signed(t, EVENTS, any, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.issues.some((i: { path: string }) => i.path.startsWith(path))).toBe(true);
    }
    expect((await signed(t, EVENTS, any, '{"orderId":')).status).toBe(400);
    expect((await state(orderId)).waits.map((w: { nodeId: string }) => w.nodeId)).toEqual(['first']);
  });

  it('a body over 1 MiB is 413', async () => {
    const res = await signed(t, EVENTS, seller, { orderId: 'x', event: 'seller.responded', payload: { blob: 'x'.repeat(1024 * 1024) } });
    expect(res.status).toBe(413);
  });
});
