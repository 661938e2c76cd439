// Connected apps driven by clients as they exist: the official MCP SDK client's own OAuth support (discovery,
// registration, PKCE) with a scripted browser step; the two-factor step; throttling, restrictions and audit as for sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { startTestService, type TestService } from '../../support/test-service.js';
import { totpCode } from '../../../src/auth/totp.js';
import { getPage, makePerson, makeTemporaryPerson, pendingTotpSecret, postForm, type TestPerson } from '../identity/identity-client.js';
import { authorizeUrl, CookieJar, connect, formAction, pkce, registerClient, REDIRECT_URI, visit } from './oauth-client.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

/** An MCP client's OAuth state, kept in memory, whose "browser" is handed the authorization URL. */
class ScriptedBrowserProvider implements OAuthClientProvider {
  authorizationUrl: URL | null = null;
  private info: any;
  private stored: any;
  private verifier = '';
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata = {
    client_name: 'MCP SDK client',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  clientInformation() { return this.info; }
  saveClientInformation(info: unknown) { this.info = info; }
  tokens() { return this.stored; }
  saveTokens(tokens: unknown) { this.stored = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

/** The browser step: the person signs in and allows `role` on the consent pages. */
async function consentInBrowser(url: URL, person: TestPerson, role: string): Promise<URLSearchParams> {
  const jar = new CookieJar();
  let page = await visit(t, jar, url.toString());
  page = await visit(t, jar, formAction(page.html), { email: person.email, password: person.password });
  page = await visit(t, jar, formAction(page.html), { role, decision: 'allow' });
  if (!page.callback) throw new Error(`no callback: ${page.html.slice(0, 500)}`);
  return page.callback.searchParams;
}

describe('the official MCP SDK client connects on its own', () => {
  it('a 401 starts discovery and registration; after the browser step it lists the tools of the chosen role', async () => {
    const person = await makePerson(t, 'operator', 'mcp-sdk');
    const provider = new ScriptedBrowserProvider();
    const url = new URL('/mcp', t.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'sdk', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl?.pathname).toBe('/oauth/authorize');
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(url.toString());
    expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await consentInBrowser(provider.authorizationUrl!, person, 'approver');
    expect(callback.get('iss')).toBe(t.url);
    await first.finishAuth(callback);
    const client = new Client({ name: 'sdk', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('decide_approval');
    expect(tools).not.toContain('cancel_order');
    // Decisions the app makes are recorded as the person via MCP.
    const flows = await client.callTool({ name: 'list_flows', arguments: {} });
    expect(flows.isError).toBeFalsy();
  });
});

describe('sign-in rules on the consent pages', () => {
  it('a person with two-factor gives the code before consenting', async () => {
    const person = await makePerson(t, 'approver', 'oauth-2fa');
    const secret = await pendingTotpSecret(t, person.cookie);
    const code = async () => totpCode(secret, Math.floor((await t.advance(0)) / 1000));
    expect((await postForm(t, '/account/two-factor', { password: person.password, code: await code() }, { cookie: person.cookie })).status).toBe(200);
    await t.advance(31_000); // the next code step: each code is accepted once
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    let page = await visit(t, jar, authorizeUrl(client, { resource: `${t.url}/mcp`, challenge: pkce().challenge }));
    page = await visit(t, jar, formAction(page.html), { email: person.email, password: person.password });
    expect(page.html).toContain('name="code"');
    const wrong = await visit(t, jar, formAction(page.html), { code: '000000' === (await code()) ? '111111' : '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('That code is not right.');
    page = await visit(t, jar, formAction(wrong.html), { code: await code() });
    expect(page.html).toContain('name="decision" value="allow"');
  });

  it('a temporary password is refused until the person chooses their own', async () => {
    const person = await makeTemporaryPerson(t, 'operator');
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    const page = await visit(t, jar, authorizeUrl(client, { resource: `${t.url}/mcp`, challenge: pkce().challenge }));
    const refused = await visit(t, jar, formAction(page.html), { email: person.email, password: person.temporaryPassword });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Choose your own password on the Account page first');
  });

  it('wrong passwords are throttled like dashboard sign-in (429 even with the right one) and audited', async () => {
    const person = await makePerson(t, 'viewer', 'oauth-throttle');
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    const page = await visit(t, jar, authorizeUrl(client, { resource: `${t.url}/mcp`, challenge: pkce().challenge }));
    const action = formAction(page.html);
    for (let i = 0; i < 5; i++) expect((await visit(t, jar, action, { email: person.email, password: `wrong-password-${i}` })).status).toBe(401);
    const throttled = await visit(t, jar, action, { email: person.email, password: person.password });
    expect(throttled.status).toBe(429);
    const events = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=50')).body.events as { action: string; target: string }[];
    expect(events.filter((e) => e.action === 'auth.sign_in_failed' && e.target === person.email).length).toBeGreaterThanOrEqual(5);
    expect(events.some((e) => e.action === 'auth.sign_in_throttled')).toBe(true);
  });

  it('a cross-site post to the consent pages is refused like a cross-site sign-in', async () => {
    const client = await registerClient(t, 'mcp');
    const page = await visit(t, new CookieJar(), authorizeUrl(client, { resource: `${t.url}/mcp`, challenge: pkce().challenge }));
    const res = await fetch(new URL(formAction(page.html), t.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      body: 'email=a%40b.c&password=x',
    });
    expect(res.status).toBe(403);
  });

  it('a successful consent sign-in is audited naming the app', async () => {
    const person = await makePerson(t, 'viewer', 'oauth-audit');
    await connect(t, await registerClient(t, 'mcp', 'Audited app'), { email: person.email, password: person.password, role: 'viewer', resource: `${t.url}/mcp` });
    const events = (await t.call('GET', '/api/v1/audit-events?type=auth&limit=50')).body.events as { action: string; actor: string; detail: any }[];
    expect(events.find((e) => e.action === 'auth.sign_in' && e.actor === person.email)?.detail).toMatchObject({ app: 'Audited app', endpoint: `${t.url}/mcp` });
    const account = await getPage(t, '/account', person.cookie);
    expect(account.text).toContain('Audited app');
  });
});
