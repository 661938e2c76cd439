// Issue 19, "a valid credential costs no database round trip after its first use": the API-token cache through the real
// HTTP surface, its invalidation (revoke, owner disabled, role lowered, expiry by the test clock, across two nodes over
// Redis) and the bearer throttle that still counts every wrong guess (spec "Authentication", "Failed-sign-in throttling").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type { Db } from '../../../src/db/db.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttr, makePerson, makeToken, postForm, serverNow, type TestPerson } from './identity-client.js';


/**
 * Records the text of every statement the service's pool runs from now on: each client is wrapped
 * when it is checked out, which covers `pool.query` (it checks a client out too) and transactions.
 */
function recordStatements(db: Db): string[] {
  const seen: string[] = [];
  const wrapped = new WeakSet<pg.PoolClient>();
  db.pool.on('acquire', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as any).query = (...args: unknown[]) => {
      const first = args[0] as string | { text?: string };
      seen.push(typeof first === 'string' ? first : (first?.text ?? ''));
      return query(...args);
    };
  });
  return seen;
}
const credentialSql = (seen: string[]) => seen.filter((s) => /\bapi_tokens\b|\bauth_failures\b/.test(s));
const until = async (check: () => Promise<boolean>, timeoutMs = 10_000): Promise<boolean> => {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
};

const as = (secret: string, ip?: string) => ({ token: secret, ...(ip ? { headers: { 'x-forwarded-for': ip } } : {}) });

describe('one node (spec "Authentication": every request checks the credential; issue 19 cache)', () => {
  let t: TestService;
  let statements: string[];
  let ipCounter = 0;
  const newIp = () => `203.0.113.${++ipCounter}`;
  beforeAll(async () => {
    t = await startTestService({ env: { TRUST_PROXY: '1' }, redis: false });
    statements = recordStatements(t.service.ctx.db);
  });
  afterAll(async () => {
    await t?.close();
  });
  const viewerRoute = (secret: string, ip?: string) => t.call('GET', '/api/v1/flows', undefined, as(secret, ip));
  const operatorRoute = (secret: string) => t.call('GET', '/api/v1/team', undefined, as(secret));
  /** An operator token made by the person on their Account page (it acts for them). */
  async function tokenOf(person: TestPerson, name: string): Promise<string> {
    const res = await postForm(t, '/account/api-tokens', { name, role: 'operator', expiresIn: 'never' }, { cookie: person.cookie });
    expect(res.status, res.text.slice(0, 300)).toBe(201);
    return dataAttr(res.text, 'api-token-secret')!;
  }

  it('after its first use a token costs no SQL on api_tokens or auth_failures (no throttle read, no token read)', async () => {
    const { secret } = await makeToken(t, 'viewer', 'never', 'cached-viewer');
    statements.length = 0;
    expect((await viewerRoute(secret)).status).toBe(200);
    // The first use reads the token (and writes last_used_at): the recorder sees it. A known token never reads the throttle (contract 4).
    const first = credentialSql(statements);
    expect(first.some((s) => /FROM auth_failures/.test(s))).toBe(false);
    expect(first.some((s) => /FROM api_tokens t LEFT JOIN people/.test(s))).toBe(true);

    statements.length = 0;
    for (let i = 0; i < 10; i++) expect((await viewerRoute(secret)).status).toBe(200);
    expect(statements.length).toBeGreaterThan(0); // the route's own reads
    expect(credentialSql(statements)).toEqual([]);
    // (The clock moves through the API with the workspace password, a bearer that is always counted: not recorded.)
    await t.advance(30_000); // last_used_at is written at most once a minute, and the entry is inside its TTL
    statements.length = 0;
    for (let i = 0; i < 5; i++) expect((await viewerRoute(secret)).status).toBe(200);
    expect(credentialSql(statements)).toEqual([]);
  });

  it('revoke: the next request is 401 at once', async () => {
    const { id, secret } = await makeToken(t, 'viewer', 'never', 'to-revoke');
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/api-tokens/${id}`)).status).toBe(200);
    const refused = await viewerRoute(secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('This API token was revoked');
  });

  it('owner disabled: the next request is 401 at once; enabled again, it works', async () => {
    const bob = await makePerson(t, 'operator', 'cache-bob');
    const secret = await tokenOf(bob, 'bob-cached');
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await t.call('PATCH', `/api/v1/team/${bob.id}`, { enabled: false })).status).toBe(200);
    const refused = await viewerRoute(secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("This API token's owner is disabled");
    expect((await t.call('PATCH', `/api/v1/team/${bob.id}`, { enabled: true })).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(200);
  });

  it("owner's role lowered: the token's effective role drops at once (403 on a write)", async () => {
    const ann = await makePerson(t, 'operator', 'cache-ann');
    const secret = await tokenOf(ann, 'ann-cached');
    expect((await operatorRoute(secret)).status).toBe(200);
    expect((await operatorRoute(secret)).status).toBe(200);
    expect((await t.call('PATCH', `/api/v1/team/${ann.id}`, { role: 'viewer' })).status).toBe(200);
    const write = await t.call('POST', '/api/v1/api-tokens', { name: 'ann-escape', role: 'viewer' }, as(secret));
    expect(write.status).toBe(403);
    expect(write.body.error).toBe('This needs the operator role');
    expect((await viewerRoute(secret)).status).toBe(200);
  });

  it('expiry by the test clock: a cached token is 401 the moment it expires (inside the cache TTL), audited api.token_expired', async () => {
    const { secret, token } = await makeToken(t, 'viewer', '30d', 'cache-expiring');
    const now = await serverNow(t);
    await t.advance(token.expiresAt - now - 10_000);
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(200);
    await t.advance(20_000); // past expiry, well inside the 60-second TTL
    const refused = await viewerRoute(secret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(`This API token expired on ${new Date(token.expiresAt).toISOString()}`);
    const events = (await t.call('GET', '/api/v1/audit-events?type=api&limit=100')).body.events as any[];
    expect(events.some((e) => e.action === 'api.token_expired' && e.target === 'cache-expiring')).toBe(true);
  });

  it('wrong guesses are still counted in PostgreSQL at once and throttled after 20, and a live token from that address is still served (contract 4)', async () => {
    const { secret } = await makeToken(t, 'viewer', 'never', 'cache-throttle');
    const ip = newIp();
    expect((await viewerRoute(secret, ip)).status).toBe(200);
    expect((await viewerRoute(secret, ip)).status).toBe(200); // cached now
    for (let i = 0; i < 20; i++) {
      expect((await viewerRoute(`svc_live_wrong-guess-${i}`, ip)).status).toBe(401);
      const { rows } = await t.database.db.query('SELECT count(*)::int AS n FROM auth_failures WHERE key = $1', [`bearer:${ip}`]);
      expect(rows[0].n).toBe(i + 1);
    }
    const over = await viewerRoute('svc_live_wrong-guess-21', ip);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    // The live token from the throttled address is served from the cache, without a throttle read.
    statements.length = 0;
    expect((await viewerRoute(secret, ip)).status).toBe(200);
    expect(credentialSql(statements)).toEqual([]);
    // The window moves on: unknown tokens from the address are compared again.
    await t.advance(15 * 60_000 + 1_000);
    expect((await viewerRoute('svc_live_wrong-guess-22', ip)).status).toBe(401);
  });

  it('the raw secret is never what the service keeps: the audit of a refused token shows only its prefix', async () => {
    const { id, secret } = await makeToken(t, 'viewer', 'never', 'cache-audit');
    expect((await viewerRoute(secret)).status).toBe(200);
    expect((await t.call('DELETE', `/api/v1/api-tokens/${id}`)).status).toBe(200);
    expect((await viewerRoute(secret)).status).toBe(401);
    const events = await t.call('GET', '/api/v1/audit-events?type=api&limit=100');
    expect(events.text).toContain(secret.slice(0, 12));
    expect(events.text).not.toContain(secret);
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('two nodes on one database and one Redis (issue 19: invalidation reaches every node)', () => {
  let a: TestService;
  let b: TestService;
  let onB: string[];
  beforeAll(async () => {
    a = await startTestService();
    b = await startTestService({ database: a.database });
    onB = recordStatements(b.service.ctx.db);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a token revoked on node A is refused by node B, which had it cached, within a short wait', async () => {
    const { id, secret } = await makeToken(a, 'viewer', 'never', 'two-node-revoke');
    expect((await b.call('GET', '/api/v1/flows', undefined, as(secret))).status).toBe(200);
    onB.length = 0;
    expect((await b.call('GET', '/api/v1/flows', undefined, as(secret))).status).toBe(200);
    expect(credentialSql(onB)).toEqual([]); // B serves it from its cache
    expect((await a.call('DELETE', `/api/v1/api-tokens/${id}`)).status).toBe(200);
    expect((await a.call('GET', '/api/v1/flows', undefined, as(secret))).status).toBe(401);
    expect(await until(async () => (await b.call('GET', '/api/v1/flows', undefined, as(secret))).status === 401)).toBe(true);
  });

  it("an owner's role lowered on node A lowers the token's role on node B", async () => {
    const carol = await makePerson(a, 'operator', 'two-node-carol');
    const made = await postForm(a, '/account/api-tokens', { name: 'carol-two-node', role: 'operator', expiresIn: 'never' }, { cookie: carol.cookie });
    const secret = dataAttr(made.text, 'api-token-secret')!;
    expect((await b.call('GET', '/api/v1/team', undefined, as(secret))).status).toBe(200);
    expect((await b.call('GET', '/api/v1/team', undefined, as(secret))).status).toBe(200);
    expect((await a.call('PATCH', `/api/v1/team/${carol.id}`, { role: 'viewer' })).status).toBe(200);
    expect(await until(async () => (await b.call('GET', '/api/v1/team', undefined, as(secret))).status === 403)).toBe(true);
  });
});
