// The /assistant page in a real browser (Debian chromium + playwright-core): ask, get an answer, confirm a proposal and see
// it done; the conversation is the person's A2A conversation; the page keeps the CSP and loads nothing from elsewhere.
import { browserMissing, launchChromium } from '../../support/browser.js';
import { openSignedIn } from '../../support/signed-in-page.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makePerson, sessionCookie, type TestPerson } from '../identity/identity-client.js';
import { WORKSPACE_PASSWORD } from '../../support/test-service.js';
import { PERSON_ONLY_MESSAGE } from '../../../src/web/assistant/assistant-socket.js';
import { WEBSOCKETS_PER_HOLDER } from '../../../src/transport/websocket-registry.js';
import { graphs, publishFlow, startBody } from '../orders/orders-support.js';


const missing = browserMissing;

let t: TestService;
let operator: TestPerson;
beforeAll(async () => {
  t = await startTestService();
  operator = await makePerson(t, 'operator', 'assistant-page');
  await publishFlow(t, 'page-wait', graphs.eventWait);
});
afterAll(async () => {
  await t?.close();
});

describe('the assistant socket', () => {
  it('refuses a caller without a session, and one from another origin', async () => {
    const refused = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/agents/assistant-agent/default`, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => undefined);
      });
    expect(await refused({})).toBe(401);
    expect(await refused({ cookie: operator.cookie, origin: 'https://evil.example' })).toBe(403);
  });
});

describe('the assistant for the workspace password (newcomer walk 5)', () => {
  it('the page says why it cannot be used (conversations belong to a person) and opens no socket; the socket refusal says the same', async () => {
    const cookie = await sessionCookie(t, '', WORKSPACE_PASSWORD);
    const res = await fetch(`${t.url}/assistant`, { headers: { cookie, accept: 'text/html' }, redirect: 'manual' });
    expect(res.status).toBe(200);
    const body = await res.text();
    expect(body).toContain('data-assistant-unavailable="person-only"');
    expect(body).toContain(PERSON_ONLY_MESSAGE);
    expect(body).toContain('href="/team"');
    expect(body).not.toContain('/assets/assistant.js');
    expect(body).not.toContain('data-assistant ');
    const refusal = await new Promise<{ status: number; body: string }>((resolve) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/agents/assistant-agent/default`, { headers: { cookie, origin: new URL(t.url).origin } });
      ws.on('unexpected-response', (_req, r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      });
      ws.on('open', () => resolve({ status: 101, body: '' }));
      ws.on('error', () => undefined);
    });
    expect(refusal).toEqual({ status: 403, body: JSON.stringify({ error: PERSON_ONLY_MESSAGE }) });
  });
});

describe.skipIf(missing !== null)(`the assistant page in a real browser${missing ? ` — skipped: ${missing}` : ''}`, () => {
  let browser: any;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('asks, answers, and a confirmed proposal cancels the order as the person; the turns are the person’s A2A tasks', async () => {
    const id = (await t.call('POST', '/api/v1/orders', startBody('page-wait'))).body.orderId;
    const { page, context, errors, origins } = await openSignedIn(browser, t.url, operator.cookie);

    await page.goto(`${t.url}/assistant?name=page-test`);
    await page.waitForSelector('[data-assistant][data-ready="true"]', { state: 'attached' });
    await page.fill('#question', `why is ${id} waiting?`);
    await page.click('form[data-ask] button[type="submit"]');
    await page.waitForSelector('[data-turn-state="TASK_STATE_COMPLETED"] [data-answer]');
    expect(await page.textContent('[data-turn-state="TASK_STATE_COMPLETED"] [data-answer]')).toContain('waits for the event payment.received');

    await page.fill('#question', 'cancel it');
    await page.click('form[data-ask] button[type="submit"]');
    await page.waitForSelector('[data-turn-state="TASK_STATE_INPUT_REQUIRED"] button[data-confirm="true"]');
    expect((await t.call('GET', `/api/v1/orders/${id}`)).body.status).toBe('waiting');
    await page.click('[data-turn-state="TASK_STATE_INPUT_REQUIRED"] button[data-confirm="true"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-turn-state="TASK_STATE_COMPLETED"]').length === 2);
    const order = (await t.call('GET', `/api/v1/orders/${id}`)).body;
    expect([order.status, order.reason]).toEqual(['cancelled', `Cancelled by an agent (${operator.email})`]);

    // The same conversation is the person's A2A tasks (contextId assistant:<name>), so a reload shows it.
    const { rows } = await t.service.ctx.db.query("SELECT count(*)::int AS n FROM a2a_tasks WHERE owner = $1 AND context_id = 'assistant:page-test'", [`person:${operator.id}`]);
    expect(rows[0].n).toBe(2);
    await page.reload();
    await page.waitForSelector('[data-assistant][data-ready="true"]', { state: 'attached' });
    expect(await page.locator('[data-turn]').count()).toBe(2);
    expect(errors).toEqual([]);
    expect([...origins]).toEqual([new URL(t.url).origin]);
    await context.close();
  });

  it(`a socket the server refuses (the person already has ${WEBSOCKETS_PER_HOLDER} open) leaves the page saying why, not only "Disconnected"`, async () => {
    const person = await makePerson(t, 'viewer', 'assistant-page-full');
    const held = await Promise.all(
      Array.from({ length: WEBSOCKETS_PER_HOLDER }, () => new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${t.url.replace('http', 'ws')}/agents/assistant-agent/held`, { headers: { cookie: person.cookie, origin: new URL(t.url).origin } });
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      })),
    );
    const { page, context } = await openSignedIn(browser, t.url, person.cookie);
    await page.goto(`${t.url}/assistant`);
    await page.waitForSelector('[data-assistant][data-closed]', { state: 'attached' });
    expect(await page.textContent('[data-assistant-status]')).toContain('too many assistant and order pages are open');
    await context.close();
    for (const ws of held) ws.close();
  });
});
