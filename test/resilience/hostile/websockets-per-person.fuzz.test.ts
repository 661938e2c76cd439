// Hostile websocket use by one person (security review 2 H-2, contract section 8): a generated mix of opens on both
// surfaces over several sign-ins, garbage and flooding frames, and closes. The person never holds more than 20 open,
// every refusal is a 4xx, nothing is left counted once they close, and the service logs no error and keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { FULL } from '../support/resilience-size.js';
import { resilienceSeed, seededRandom } from '../support/seed.js';
import { startHostileService, type HostileService } from './hostile-service.js';
import { HOSTILE_STRINGS } from './schema-arbitrary.js';
import { sessionCookie, makePerson } from '../../integration/identity/identity-client.js';
import { WEBSOCKETS_PER_HOLDER } from '../../../src/transport/websocket-registry.js';

const STEPS = FULL ? 2_000 : 300;

const logs: Record<string, unknown>[] = [];
let h: HostileService;
let personId: string;
let cookies: string[];
let orderId: string;
const random = seededRandom(resilienceSeed('hostile websockets per person'));

beforeAll(async () => {
  h = await startHostileService({ logRecords: logs });
  const person = await makePerson(h.t, 'viewer', 'ws-hostile');
  personId = person.id;
  cookies = [person.cookie, await sessionCookie(h.t, person.email, person.password), await sessionCookie(h.t, person.email, person.password)];
  orderId = h.ids.waitingOrder;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** Opens one socket of a random surface with a random session; resolves with it or the refusal's status. */
function openOne(): Promise<WebSocket | number> {
  const path = random() < 0.5 ? `/agents/assistant-agent/c${Math.floor(random() * 3)}` : `/agents/order-agent/${orderId}`;
  return new Promise((resolve) => {
    const ws = new WebSocket(h.t.url.replace('http', 'ws') + path, { headers: { cookie: pick(cookies), origin: new URL(h.t.url).origin } });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => (res.resume(), resolve(res.statusCode ?? -1)));
    ws.on('error', () => resolve(-1));
  });
}

/** A frame: garbage text, a hostile string, a valid-looking question or action, or a burst of them. */
function frames(): string[] {
  const one = () =>
    pick([
      () => pick(HOSTILE_STRINGS),
      () => JSON.stringify({ type: 'ask', text: pick(HOSTILE_STRINGS) || 'what needs attention?' }),
      () => JSON.stringify({ type: 'action', action: 'cancel', requestId: pick(HOSTILE_STRINGS) }),
      () => '{"type":' + '['.repeat(Math.floor(random() * 200)),
    ])();
  return Array.from({ length: random() < 0.1 ? 200 : 1 + Math.floor(random() * 3) }, one);
}

describe('websockets per person, hostile', () => {
  it(`${STEPS} generated opens, frames and closes: never more than ${WEBSOCKETS_PER_HOLDER} open, refusals are 4xx, nothing left counted`, async () => {
    const open = new Set<WebSocket>();
    const statuses = new Set<number>();
    const registry = h.t.service.ctx.websockets;
    for (let step = 0; step < STEPS; step++) {
      const r = random();
      if (r < 0.45) {
        const batch = await Promise.all(Array.from({ length: 1 + Math.floor(random() * 6) }, openOne));
        for (const b of batch) {
          if (typeof b === 'number') statuses.add(b);
          else {
            open.add(b);
            b.once('close', () => open.delete(b));
          }
        }
      } else if (r < 0.8 && open.size > 0) {
        const ws = pick([...open]);
        for (const f of frames()) if (ws.readyState === WebSocket.OPEN) ws.send(f);
      } else if (open.size > 0) {
        pick([...open]).close();
      }
      expect(open.size).toBeLessThanOrEqual(WEBSOCKETS_PER_HOLDER);
      expect(registry.openFor(`person:${personId}`)).toBeLessThanOrEqual(WEBSOCKETS_PER_HOLDER);
    }
    expect([...statuses].every((s) => s >= 400 && s < 500)).toBe(true);
    for (const ws of open) ws.close();
    for (let i = 0; i < 300 && registry.openFor(`person:${personId}`) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(registry.openFor(`person:${personId}`)).toBe(0);
    expect((await h.t.call('GET', '/health')).status).toBe(200);
    expect(logs.filter((l) => typeof l.level === 'number' && l.level >= 50)).toEqual([]);
  }, 120_000);
});
