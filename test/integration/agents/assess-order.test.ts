// assess_order (contract section 11, docs/agents.md "assess_order") through the registry as an agent calls it: probabilities
// from comparable past orders with their sample size, image rules, an unreachable image reported in basis, roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import type { Principal } from '../../../src/auth/principal.js';
import { assessOrderOperation } from '../../../src/application/operations/assess-order.js';
import { storeOrderDocument } from '../../../src/orders/order-documents.js';
import { graphs, publishFlow, startBody, startOrdersService } from '../orders/orders-support.js';

let t: TestService;
const viewer: Principal = { kind: 'token', id: 'tok_viewer', role: 'viewer', actor: 'token:viewer', via: 'bearer' };
const assess = (input: unknown, caller: Principal | null = viewer) => t.service.ctx.operations.callByName('assess_order', caller, input, { ip: null }) as Promise<any>;
const total = (p: Record<string, number>) => Object.values(p).reduce((s, x) => s + x, 0);

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;
const GIF_URL = `data:image/gif;base64,${Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1').toString('base64')}`;

let target: string;

async function start(customerId?: string): Promise<string> {
  const res = await t.call('POST', '/api/v1/orders', startBody('assess-flow', customerId ? { customerId } : {}));
  if (res.status !== 201) throw new Error(`start: ${res.status} ${res.text}`);
  return res.body.orderId;
}
async function decide(id: string, decision: 'approved' | 'rejected'): Promise<void> {
  const res = await t.call('POST', `/api/v1/orders/${id}/approvals/review`, { decision });
  if (res.status !== 200) throw new Error(`decide: ${res.status} ${res.text}`);
}

beforeAll(async () => {
  t = await startOrdersService();
  const { db, clock, operations } = t.service.ctx;
  // Until the service wires the tool itself (then this is skipped and the service's own instance is tested).
  if (!operations.get('assess_order')) operations.add(assessOrderOperation({ db, clock, allowLoopback: false, timeoutMs: 2000 }));
  await publishFlow(t, 'assess-flow', graphs.approval);
  // Past orders on the same flow and model: three approved (completed), one rejected (declined), one of them the same customer's.
  for (const [customer, decision] of [['cus_assess', 'approved'], [undefined, 'approved'], [undefined, 'approved'], [undefined, 'rejected']] as const)
    await decide(await start(customer), decision);
  target = await start('cus_assess');
});
afterAll(async () => {
  await t?.close();
});

describe('assess_order estimates', () => {
  it('answers every question type with probabilities summing to 1', async () => {
    const { answers } = await assess({
      orderId: target,
      questions: [
        { id: 'done', type: 'noul', question: 'Will this order complete?' },
        { type: 'choice', question: 'How will it end?', options: ['completed', 'declined', 'cancelled'] },
        { type: 'score', question: 'How risky is it?', levels: ['low', 'medium', 'high'] },
        { type: 'choice', question: 'Which colour?', options: ['red', 'green', 'blue', 'white'] },
      ],
    });
    expect(answers.map((a: { type: string }) => a.type)).toEqual(['noul', 'choice', 'score', 'choice']);
    for (const a of answers) expect(total(a.probabilities)).toBeCloseTo(1, 9);
    expect(answers[0].id).toBe('done');
    expect(Object.keys(answers[2].probabilities)).toEqual(['low', 'medium', 'high']);
    expect(answers[3].probabilities).toEqual({ red: 0.25, green: 0.25, blue: 0.25, white: 0.25 });
    expect(answers[3].basis).toMatchObject({ method: 'prior', sampleSize: 0 });
  });

  it('basis names the sample size of comparable finished orders, per cohort', async () => {
    const [answer] = (await assess({ orderId: target, questions: [{ type: 'noul', question: 'Will it complete?' }] })).answers;
    expect(answer.basis).toMatchObject({ method: 'estimated', topic: 'completes', sampleSize: 4, sampleOf: 'finished comparable orders' });
    expect(answer.basis.cohorts).toEqual([
      { cohort: 'model', match: 'b2c', size: 4, positive: 3 },
      { cohort: 'flow', match: 'assess-flow', size: 4, positive: 3 },
      { cohort: 'customer', match: 'cus_assess', size: 1, positive: 1 },
    ]);
    expect(answer.basis.summary).toMatch(/from 4 finished comparable orders/);
    expect(answer.probabilities.yes).toBeGreaterThan(0.5);
    expect(answer.probabilities.yes).toBeLessThan(1);
  });

  it('counts decided approvals for "will it be approved" and answers a finished order from what it shows', async () => {
    const [approved] = (await assess({ orderId: target, questions: [{ type: 'noul', question: 'Will it be approved?' }] })).answers;
    expect(approved.basis).toMatchObject({ topic: 'approved', sampleSize: 4 });
    expect(approved.basis.signals).toContainEqual({ code: 'approvals', detail: '1 open approval' });
    const finished = await start();
    await decide(finished, 'rejected');
    const [done] = (await assess({ orderId: finished, questions: [{ type: 'noul', question: 'Will it complete?' }] })).answers;
    expect(done.probabilities).toEqual({ yes: 0, no: 1 });
    expect(done.basis.method).toBe('observed');
  });

  it('an unknown order is not found', async () => {
    await expect(assess({ orderId: 'ord_nothing', questions: [{ type: 'noul', question: 'Will it complete?' }] })).rejects.toMatchObject({ kind: 'not_found', message: 'Order not found' });
  });
});

describe('assess_order images', () => {
  it('a 5th image or a GIF data URL is invalid input', async () => {
    const q = [{ type: 'noul', question: 'Will it complete?' }];
    await expect(assess({ orderId: target, questions: q, images: [PNG_URL, PNG_URL, PNG_URL, PNG_URL, PNG_URL] })).rejects.toMatchObject({
      kind: 'invalid_input',
      issues: [expect.objectContaining({ path: 'images' })],
    });
    await expect(assess({ orderId: target, questions: q, images: [GIF_URL] })).rejects.toMatchObject({
      kind: 'invalid_input',
      issues: [{ path: 'images.0', message: 'is not a PNG, JPEG or WebP image by its bytes' }],
    });
  });

  it('an https image that cannot be fetched (loopback refused) is reported in basis; data URLs and documents of the order are read', async () => {
    const docId = await storeOrderDocument(t.service.ctx.db, { orderId: target, kind: 'photo', name: 'mug.png', contentType: 'image/png', body: PNG }, t.service.ctx.clock.now());
    const [answer] = (
      await assess({ orderId: target, questions: [{ type: 'noul', question: 'Will it complete?' }], images: [PNG_URL, 'https://127.0.0.1:9/mug.png', docId] })
    ).answers;
    expect(total(answer.probabilities)).toBeCloseTo(1, 9);
    expect(answer.basis.images).toEqual([
      { index: 0, source: 'data', status: 'read', format: 'png', bytes: PNG.length },
      { index: 1, source: 'url', status: 'unavailable', detail: expect.stringMatching(/loopback|ECONNREFUSED/) },
      { index: 2, source: 'document', status: 'read', format: 'png', bytes: PNG.length },
    ]);
    expect(answer.basis.summary).toMatch(/1 image could not be read \(#2: /);
  });

  it('a stored document that is not an image is invalid input; one of another order is only reported', async () => {
    const other = await start();
    const text = await storeOrderDocument(t.service.ctx.db, { orderId: target, kind: 'inbound', name: 'po.txt', contentType: 'text/plain', body: 'PO 1' }, 0);
    const foreign = await storeOrderDocument(t.service.ctx.db, { orderId: other, kind: 'photo', name: 'x.png', contentType: 'image/png', body: PNG }, 0);
    const q = [{ type: 'noul', question: 'Will it complete?' }];
    await expect(assess({ orderId: target, questions: q, images: [text] })).rejects.toMatchObject({ kind: 'invalid_input', issues: [{ path: 'images.0' }] });
    const [answer] = (await assess({ orderId: target, questions: q, images: [foreign] })).answers;
    expect(answer.basis.images).toEqual([{ index: 0, source: 'document', status: 'unavailable', detail: 'No such document on this order' }]);
  });
});

describe('assess_order roles', () => {
  it('a viewer may call it, an unauthenticated caller may not; it is an agents’ tool, not a REST route', async () => {
    await expect(assess({ orderId: target, questions: [{ type: 'noul', question: 'Is it fraud?' }] })).resolves.toMatchObject({ answers: [{ type: 'noul' }] });
    await expect(assess({ orderId: target, questions: [{ type: 'noul', question: 'Is it fraud?' }] }, null)).rejects.toMatchObject({ kind: 'unauthenticated' });
    const op = t.service.ctx.operations.get('assess_order')!;
    expect(op).toMatchObject({ role: 'viewer', effect: 'read', audience: 'agents', feature: 'orders' });
    expect(op.input.safeParse(op.example).success).toBe(true);
  });

  it('summarises its answers in one sentence (the MCP text content)', async () => {
    const output = await assess({ orderId: target, questions: [{ id: 'done', type: 'noul', question: 'Will it complete?' }] });
    expect(t.service.ctx.operations.get('assess_order')!.summarize!(output)).toMatch(/^done: yes \(\d+%, estimated, \d+ counted\)\.$/);
  });
});
