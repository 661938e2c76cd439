// Dynamic client registration (contract section 12): which redirect URIs register, the caps on names and URIs, 10
// registrations per address per minute, unused clients deleted after a day, the consent page naming where the code
// goes, and the authorization server's own error page as one of the service's pages.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';
import { connect, CookieJar, freshLoopbackAddress, pkce, postJsonFrom, visit, type RegisteredClient } from './oauth-client.js';

let t: TestService;
let person: TestPerson;
beforeAll(async () => {
  t = await startTestService();
  person = await makePerson(t, 'approver', 'dcr-approver');
});
afterAll(async () => {
  await t?.close();
});

const registerUrl = () => `${t.url}/oauth/register`;
const body = (redirectUris: unknown, extra: Record<string, unknown> = {}) => ({
  client_name: 'Registration test',
  redirect_uris: redirectUris,
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...extra,
});
const register = (payload: unknown, from = freshLoopbackAddress()) => postJsonFrom(registerUrl(), payload, from);
const storedClients = async () => Number((await t.service.ctx.db.query<{ n: string }>(`SELECT count(*) AS n FROM oauth_store WHERE model = 'Client'`)).rows[0].n);

/** A registered client as the scripted OAuth client uses it (its authorization endpoint from discovery). */
async function clientWith(redirectUri: string, name = 'Registration test'): Promise<RegisteredClient> {
  const res = await register(body([redirectUri], { client_name: name }));
  expect(res.status, res.text).toBe(201);
  return { clientId: res.body.client_id, metadata: { authorization_endpoint: `${t.url}/oauth/authorize`, token_endpoint: `${t.url}/oauth/token` } };
}

function authorize(clientId: string, redirectUri: string): string {
  const u = new URL(`${t.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    state: 'st-1',
    scope: 'viewer',
    resource: `${t.url}/mcp`,
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  }))
    u.searchParams.set(k, v);
  return u.toString();
}

describe('redirect URIs at registration', () => {
  it('https, loopback http (127.0.0.1, [::1], localhost, any port) and a native app’s private-use scheme register (201)', async () => {
    const allowed = [
      'https://app.example/callback',
      'http://127.0.0.1/callback',
      'http://127.0.0.1:8080/callback',
      'http://[::1]:3000/cb',
      'http://localhost:3000/cb',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'com.example.app:/cb',
    ];
    for (const uri of allowed) {
      const res = await register(body([uri]));
      expect(res.status, `${uri}: ${res.text}`).toBe(201);
      expect(res.body.redirect_uris).toEqual([uri]);
    }
  });

  it('plain http to another host, loopback look-alikes, script, data, file, ftp and websocket schemes are 400 invalid_redirect_uri and store nothing', async () => {
    const before = await storedClients();
    const refused = [
      'http://evil.example/cb',
      'http://10.0.0.1/cb',
      'http://127.0.0.1.evil.example/cb',
      'http://localhost.evil.example/cb',
      'http://localhost@evil.example/cb',
      'http://[::2]/cb',
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'ftp://files.example/cb',
      'ws://localhost/cb',
      'wss://app.example/cb',
      'https://app.example/cb#fragment',
      'not a uri',
    ];
    for (const uri of refused) {
      const res = await register(body(['https://app.example/ok', uri]));
      expect(res.status, `${uri}: ${res.text}`).toBe(400);
      expect(res.body.error, uri).toBe('invalid_redirect_uri');
      expect(typeof res.body.error_description).toBe('string');
    }
    expect(await storedClients()).toBe(before);
  });

  it('a plain-http non-loopback redirect URI is refused even for a client that says it is native', async () => {
    const res = await register(body(['http://evil.example/cb'], { application_type: 'native' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_redirect_uri');
  });
});

describe('caps on one registration', () => {
  it('at most 10 redirect URIs: 10 register, 11 are 400 invalid_redirect_uri', async () => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `https://app.example/cb/${i}`);
    expect((await register(body(uris(10)))).status).toBe(201);
    const eleven = await register(body(uris(11)));
    expect(eleven.status).toBe(400);
    expect(eleven.body.error).toBe('invalid_redirect_uri');
  });

  it('client_name at most 200 characters: 200 register, 201 and 50,000 are 400 invalid_client_metadata (never a 500)', async () => {
    const before = await storedClients();
    expect((await register(body(['https://app.example/cb'], { client_name: 'n'.repeat(200) }))).status).toBe(201);
    for (const length of [201, 50_000]) {
      const res = await register(body(['https://app.example/cb'], { client_name: 'n'.repeat(length) }));
      expect(res.status, `${length}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.body.error).toBe('invalid_client_metadata');
    }
    expect(await storedClients()).toBe(before + 1);
  });
});

describe('registrations per address', () => {
  it('the 11th registration from one address within a minute is 429 with Retry-After; refused ones do not count; a minute later it registers again', async () => {
    const from = freshLoopbackAddress();
    // A refused registration stores nothing and is not counted.
    expect((await register(body(['http://evil.example/cb']), from)).status).toBe(400);
    for (let i = 0; i < 10; i++) expect((await register(body(['https://app.example/cb']), from)).status).toBe(201);
    const eleventh = await register(body(['https://app.example/cb']), from);
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers['retry-after'])).toBeGreaterThan(0);
    expect(eleventh.body.error).toBe('too_many_requests');
    // Another address is not held back.
    expect((await register(body(['https://app.example/cb']))).status).toBe(201);
    await t.advance(61_000);
    expect((await register(body(['https://app.example/cb']), from)).status).toBe(201);
  });
});

describe('the consent page', () => {
  it('names the host and port the code is sent to, escaped; a loopback client may use another port than it registered (RFC 8252 7.3)', async () => {
    const client = await clientWith('http://127.0.0.1:47999/callback', '<b>Evil</b> "app"');
    const page = await visit(t, new CookieJar(), authorize(client.clientId, 'http://127.0.0.1:51234/callback'));
    expect(page.status, page.html.slice(0, 500)).toBe(200);
    expect(page.html).toMatch(/<strong data-redirect-host>127\.0\.0\.1:51234<\/strong>/);
    expect(page.html).toContain('&lt;b&gt;Evil&lt;/b&gt; &quot;app&quot;');
    // A host it did not register is refused whatever the port.
    const other = await visit(t, new CookieJar(), authorize(client.clientId, 'http://localhost:47999/callback'));
    expect(other.status).toBe(400);
  });

  it('names the scheme for a native app’s private-use redirect, and the https host for a web app', async () => {
    const native = await clientWith('com.example.app:/oauth2redirect');
    const nativePage = await visit(t, new CookieJar(), authorize(native.clientId, 'com.example.app:/oauth2redirect'));
    expect(nativePage.html).toMatch(/<strong data-redirect-scheme>com\.example\.app:<\/strong>/);
    const web = await clientWith('https://app.example:8443/cb');
    const webPage = await visit(t, new CookieJar(), authorize(web.clientId, 'https://app.example:8443/cb'));
    expect(webPage.html).toMatch(/<strong data-redirect-host>app\.example:8443<\/strong>/);
  });
});

describe('unused clients', () => {
  it('a client no grant used is deleted 24 hours after it registered; a connected one stays and keeps working', async () => {
    const unused = await clientWith('http://127.0.0.1:47999/callback', 'Unused app');
    const used = await clientWith('http://127.0.0.1:47999/callback', 'Used app');
    await connect(t, used, { email: person.email, password: person.password, role: 'viewer', resource: `${t.url}/mcp` });
    const ids = async () =>
      (await t.service.ctx.db.query<{ id: string }>(`SELECT id FROM oauth_store WHERE model = 'Client' AND id = ANY($1)`, [[unused.clientId, used.clientId]])).rows.map((r) => r.id).sort();
    await t.advance(23 * 3_600_000);
    expect(await ids()).toEqual([unused.clientId, used.clientId].sort());
    await t.advance(3_600_000 + 60_000);
    expect(await ids()).toEqual([used.clientId]);
    const tokens = await (await t.service.ctx.db.query(`SELECT count(*)::int AS n FROM oauth_store WHERE model = 'RegistrationAccessToken' AND payload->>'clientId' = $1`, [unused.clientId])).rows[0].n;
    expect(tokens).toBe(0);
    const gone = await visit(t, new CookieJar(), authorize(unused.clientId, 'http://127.0.0.1:47999/callback'));
    expect(gone.status).toBe(400);
    const kept = await visit(t, new CookieJar(), authorize(used.clientId, 'http://127.0.0.1:47999/callback'));
    expect(kept.status).toBe(200);
  });
});

describe('the authorization server’s own pages', () => {
  it('an unknown client at /oauth/authorize gets the service’s page: its CSP and headers, nothing from another origin, no default-page notice', async () => {
    const info = vi.spyOn(console, 'info');
    const res = await fetch(`${t.url}/oauth/authorize?client_id=nonexistent&state=%3Cscript%3E`);
    const html = await res.text();
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(html).not.toContain('fonts.googleapis');
    expect(html).not.toMatch(/@import|(?:src|href)=["']?(?:https?:)?\/\//);
    expect(html).toContain('<link rel="stylesheet" href="/assets/identity.css">');
    expect(html).toMatch(/data-oauth-error>invalid_client</);
    expect(html).not.toContain('<script>');
    expect(info.mock.calls.flat().join('\n')).not.toContain('default renderError');
    info.mockRestore();
  });
});
