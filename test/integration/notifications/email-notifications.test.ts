// Notifications by email against a local SMTP server (smtp-server): sellers of a marketplace order, an approval's email
// assignee, retries over the test clock without holding the order, and a crash between commit and send (docs/notifications.md).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { createTestDatabase } from '../../support/test-db.js';
import { startSmtpCatcher, type SmtpCatcher } from '../../support/smtp-catcher.js';
import { publishFlow } from '../../support/publish-flow.js';
import { e, n } from '../../support/engine-harness.js';

const ACME = 'orders@acme-kitchenware.example';
const BOLT = 'orders@bolt-outdoor.example';
const TIMEOUT_MS = 2_000;

let smtp: SmtpCatcher;
let t: TestService;
beforeAll(async () => {
  smtp = await startSmtpCatcher();
  t = await startTestService({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'orders@shop.example', OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) } });
  await publishFlow(t, 'approve-by-mail', {
    nodes: [
      n('start', 'trigger.api'),
      n('review', 'human.approval', { title: 'Review order {{order.id}}', assignee: 'approver@shop.example' }, 'Review'),
      n('other', 'human.approval', { title: 'Second look', assignee: 'finance' }, 'Second look'),
      n('done', 'end', { outcome: 'completed' }),
      n('no', 'end', { outcome: 'declined', reason: 'Rejected' }),
    ],
    edges: [e('start', 'review'), e('review', 'other', 'approved'), e('review', 'no', 'rejected'), e('review', 'no', 'escalated'),
      e('other', 'done', 'approved'), e('other', 'no', 'rejected'), e('other', 'no', 'escalated')],
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** An approval with a deadline, titled from the order (the mail says by when to decide). */
async function publishDeadlineFlow(): Promise<void> {
  await publishFlow(t, 'approve-by-mail-deadline', {
    nodes: [
      n('start', 'trigger.api'),
      n('review', 'human.approval', { title: 'Check order {{order.id}}', assignee: 'deadline-approver@shop.example', timeout: '2h' }, 'Review'),
      n('done', 'end', { outcome: 'completed' }),
      n('no', 'end', { outcome: 'declined', reason: 'Rejected' }),
    ],
    edges: [e('start', 'review'), e('review', 'done', 'approved'), e('review', 'no', 'rejected'), e('review', 'no', 'escalated')],
  });
}

const marketplace = async (svc: TestService, lines: { sku: string; qty: number }[]) => {
  const res = await svc.call('POST', '/api/v1/orders', {
    flowId: 'tpl-marketplace-order',
    input: { model: 'marketplace', channel: 'marketplace', customerId: 'cust_1', lines },
  });
  expect(res.status).toBe(201);
  return res.body.orderId as string;
};
const mailsFor = (orderId: string, to: string) => smtp.to(to).filter((m) => m.text.includes(orderId));
const notifications = async (svc: TestService, orderId: string) => (await svc.call('GET', `/api/v1/orders/${orderId}/notifications`)).body.notifications as any[];

describe('sellers of a marketplace order (spec "Marketplace acceptance loop")', () => {
  it('each seller still to answer gets one mail with the order id and the answer route; later passes send no second one', async () => {
    const id = await marketplace(t, [{ sku: 'PAN-CAST-10', qty: 1 }, { sku: 'TENT-2P', qty: 1 }]);
    await t.advance(0); // hands the commit's events out and waits for the first attempts
    for (const to of [ACME, BOLT]) {
      const mails = mailsFor(id, to);
      expect(mails, to).toHaveLength(1);
      expect(mails[0].subject).toContain(id);
      expect(mails[0].from).toBe('orders@shop.example');
      expect(mails[0].text).toContain('/api/v1/webhooks/events');
      expect(mails[0].text).toContain('seller.responded');
      expect(mails[0].text).toContain('text/html'); // a plain-text and an HTML body
    }
    // Bolt answers; the loop opens its next pass: nobody is written to again.
    const answer = await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId: 'seller_bolt', decision: 'accepted' } });
    expect(answer.body.delivered).toBe(true);
    await t.advance(0);
    expect(mailsFor(id, ACME)).toHaveLength(1);
    expect(mailsFor(id, BOLT)).toHaveLength(1);

    const log = await notifications(t, id);
    expect(log).toEqual([
      expect.objectContaining({ audience: 'seller', channel: 'email', status: 'sent', attempts: 1, lastError: null }),
      expect.objectContaining({ audience: 'seller', channel: 'email', status: 'sent', attempts: 1, lastError: null }),
    ]);
    expect(log.map((x) => x.recipient).sort()).toEqual(['seller_acme', 'seller_bolt']);
    const order = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    const sent = order.timeline.filter((x: any) => x.kind === 'notification.sent');
    expect(sent.map((x: any) => x.message).sort()).toEqual([
      expect.stringContaining(`seller_acme <${ACME}>`),
      expect.stringContaining(`seller_bolt <${BOLT}>`),
    ]);
  });

  it('a failing SMTP server is retried on the webhook schedule (10 s, then 20 s) and the order is not held up', async () => {
    smtp.failNext(2);
    const id = await marketplace(t, [{ sku: 'KNIFE-CHEF', qty: 1 }]);
    await t.advance(0);
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting'); // waits for the seller, not for the mail
    let [row] = await notifications(t, id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringContaining('451') });
    await t.advance(10_000);
    [row] = await notifications(t, id);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(mailsFor(id, ACME)).toHaveLength(0);
    await t.advance(20_000);
    [row] = await notifications(t, id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(mailsFor(id, ACME)).toHaveLength(1);
    // The seller can still answer throughout; the order carries on.
    expect((await t.call('POST', `/api/v1/orders/${id}/events`, { event: 'seller.responded', payload: { sellerId: 'seller_acme', decision: 'accepted' } })).body.delivered).toBe(true);
  });

  it('a send lost after its attempt was claimed (a crash mid-send) is made again by its guard timer, once', async () => {
    const id = await marketplace(t, [{ sku: 'LANTERN-LED', qty: 1 }]);
    const db = t.service.ctx.db;
    const now = t.service.ctx.clock.now();
    const nid = 'ntf_crashed_mid_send_00';
    // What a crash leaves: dispatched, attempt 1 claimed and committed (with the guard for attempt 2), its result never
    // recorded. (Left undispatched, the row would also be taken by the dispatcher's poll, which is not what a crash leaves.)
    await db.query(
      `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, channel, attempts, dispatched_at, created_at, updated_at)
       VALUES ($1, $2, 'notify_sellers', 'seller', 'seller_bolt', $3, 'Order waits', 'Please answer', 'pending', 'email', 1, $4, $4, $4)`,
      [nid, id, BOLT, now],
    );
    await db.query(`INSERT INTO timers (id, kind, due_at, payload, created_at) VALUES ($1, 'notification.delivery', $2, $3, $4)`, [
      `${nid}:attempt:2`,
      now + TIMEOUT_MS + 10_000 + 5_000,
      JSON.stringify({ notificationId: nid, attempt: 2 }),
      now,
    ]);
    await t.advance(TIMEOUT_MS + 15_000);
    expect(smtp.mails.filter((m) => m.raw.includes(nid))).toHaveLength(1);
    expect((await notifications(t, id)).find((x) => x.id === nid)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });
});

describe('a crash between the commit and the send (at least once, never lost)', () => {
  it('a notification committed but never dispatched (the process died right after the commit) is sent by the next start', async () => {
    const database = await createTestDatabase();
    const env = { SMTP_URL: smtp.url, OUTBOUND_TIMEOUT_MS: String(TIMEOUT_MS) };
    const first = await startTestService({ database, env });
    const nid = 'ntf_committed_not_sent_0';
    let id: string;
    try {
      id = await marketplace(first, [{ sku: 'TENT-2P', qty: 1 }]);
      await first.advance(0);
    } finally {
      await first.close();
    }
    // What the crash leaves: the row as the notify step commits it, never handed to a channel.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(
      `INSERT INTO notifications (id, order_id, node_id, audience, recipient, address, subject, body, status, created_at, updated_at)
       VALUES ($1, $2, 'notify_sellers', 'seller', 'seller_bolt', $3, 'Order waits', 'Please answer', 'queued', 1, 1)`,
      [nid, id, BOLT],
    );
    await client.end();
    const second = await startTestService({ database, env });
    try {
      await second.advance(0);
      expect(smtp.mails.filter((m) => m.raw.includes(nid))).toHaveLength(1);
      expect((await notifications(second, id)).find((x) => x.id === nid)).toMatchObject({ status: 'sent', channel: 'email', attempts: 1 });
      // The first service's own notification went out once, before the stop, and is not sent again.
      expect(mailsFor(id, BOLT).filter((m) => !m.raw.includes(nid))).toHaveLength(1);
    } finally {
      await second.close();
      await database.drop();
    }
  });
});

describe('approvals (spec "Approval")', () => {
  it('an approval whose assignee is an email sends that person one mail when it opens; a free-text assignee none', async () => {
    const res = await t.call('POST', '/api/v1/orders', { flowId: 'approve-by-mail', input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 1 }] } });
    const id = res.body.orderId as string;
    await t.advance(0);
    const mails = mailsFor(id, 'approver@shop.example');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain(`Review order ${id}`);
    expect(mails[0].text).toContain(`/orders/${id}`);
    expect((await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision: 'approved' })).status).toBe(200);
    await t.advance(0);
    expect(mailsFor(id, 'approver@shop.example')).toHaveLength(1);
    const log = await notifications(t, id);
    expect(log).toEqual([expect.objectContaining({ audience: 'approver', recipient: 'approver@shop.example', nodeId: 'review', status: 'sent' })]);
  });

  it('the approval mail: subject "Approval waiting: <title>", body "<title>. Decide before <ISO time>; after that it escalates."', async () => {
    await publishDeadlineFlow();
    const res = await t.call('POST', '/api/v1/orders', { flowId: 'approve-by-mail-deadline', input: { model: 'b2c', lines: [{ sku: 'MUG-1', qty: 1 }] } });
    const id = res.body.orderId as string;
    await t.advance(0);
    const [approval] = (await t.call('GET', '/api/v1/approvals')).body.approvals.filter((a: any) => a.orderId === id);
    expect(approval.deadline).toEqual(expect.any(Number));
    const [mail] = mailsFor(id, 'deadline-approver@shop.example');
    expect(mail.subject).toBe(`Approval waiting: Check order ${id}`);
    expect(mail.text).toContain(`Check order ${id}. Decide before ${new Date(approval.deadline).toISOString()}; after that it escalates.`);
  });

  it('the delivery log of an unknown order is a 404', async () => {
    expect((await t.call('GET', '/api/v1/orders/ord_nope/notifications')).status).toBe(404);
  });
});
