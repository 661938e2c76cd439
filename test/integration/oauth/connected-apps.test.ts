// Connected apps (contract section 12): discovery, registration, the consent forms, tokens bound to one endpoint, the role cap,
// the person re-read on every request, Disconnect and audit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startTestService, type TestService } from '../../support/test-service.js';
import { makePerson, type TestPerson } from '../identity/identity-client.js';
import { authorizeUrl, CookieJar, connect, formAction, pkce, registerClient, REDIRECT_URI, tokenRequest, visit } from './oauth-client.js';

let t: TestService;
let approver: TestPerson;
beforeAll(async () => {
  t = await startTestService();
  approver = await makePerson(t, 'approver', 'oauth-approver');
});
afterAll(async () => {
  await t?.close();
});

const mcp = () => `${t.url}/mcp`;
const toolsWith = async (token: string) => {
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp()), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
};

describe('discovery (RFC 9728, RFC 8414)', () => {
  it('/mcp without a credential is a 401 naming its metadata; the metadata names the issuer and the roles', async () => {
    const res = await fetch(mcp(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource/mcp"`);
    const prm = await (await fetch(`${t.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: mcp(), authorization_servers: [t.url], scopes_supported: ['viewer', 'approver', 'operator'] });
    const as = await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/oauth/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(as.token_endpoint_auth_methods_supported).toContain('none');
  });
});

describe('connecting an MCP client', () => {
  it('signs in, picks a role up to the person’s own, and lists only that role’s tools; recorded as <email> via MCP', async () => {
    const client = await registerClient(t, 'mcp', 'Claude test');
    const tokens = await connect(t, client, { email: approver.email, password: approver.password, role: 'viewer', resource: mcp() });
    expect(tokens.refresh_token).toBeTruthy();
    // The token's scope is the role the person chose, not the one the app asked for (operator).
    expect(tokens.scope).toBe('viewer');
    const tools = await toolsWith(tokens.access_token);
    expect(tools).toContain('find_orders');
    expect(tools).not.toContain('decide_approval');
    const account = await fetch(`${t.url}/account`, { headers: { cookie: approver.cookie } });
    const html = await account.text();
    expect(html).toMatch(/data-connected-app="[^"]+" data-app-kind="mcp" data-app-role="viewer"/);
    const audit = (await t.call('GET', '/api/v1/audit-events?type=oauth')).body.events;
    expect(audit[0]).toMatchObject({ action: 'oauth.app_connected', actor: approver.email, target: 'Claude test' });
  });

  it('the consent offers no role above the person’s own, and a forged higher role is refused', async () => {
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    const { challenge } = pkce();
    let page = await visit(t, jar, authorizeUrl(client, { resource: mcp(), challenge }));
    page = await visit(t, jar, formAction(page.html), { email: approver.email, password: approver.password });
    expect(page.html).toContain('<option value="approver" selected>');
    expect(page.html).not.toContain('value="operator"');
    const forged = await visit(t, jar, formAction(page.html), { role: 'operator', decision: 'allow' });
    expect(forged.status).toBe(400);
    expect(forged.html).toContain('Choose a role up to your own (approver).');
  });

  it('the workspace password is refused with a message; deny sends access_denied back to the app', async () => {
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    let page = await visit(t, jar, authorizeUrl(client, { resource: mcp(), challenge: pkce().challenge }));
    const refused = await visit(t, jar, formAction(page.html), { email: '', password: 'anything' });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('The workspace password cannot connect apps: sign in with your own account.');
    page = await visit(t, jar, formAction(refused.html), { email: approver.email, password: approver.password });
    const denied = await visit(t, jar, formAction(page.html), { role: 'viewer', decision: 'deny' });
    expect(denied.callback?.searchParams.get('error')).toBe('access_denied');
    expect(denied.callback?.searchParams.get('iss')).toBe(t.url);
  });
});

describe('the token rules', () => {
  it('PKCE is required, S256 only, and a wrong verifier is refused', async () => {
    const client = await registerClient(t, 'mcp');
    const jar = new CookieJar();
    const without = await visit(t, jar, authorizeUrl(client, { resource: mcp() }));
    expect(without.callback?.searchParams.get('error')).toBe('invalid_request');
    const plain = await visit(t, jar, authorizeUrl(client, { resource: mcp(), challenge: 'x'.repeat(43), method: 'plain' }));
    expect(plain.callback?.searchParams.get('error')).toBe('invalid_request');

    const { challenge } = pkce();
    let page = await visit(t, new CookieJar(), authorizeUrl(client, { resource: mcp(), challenge }));
    const jar2 = new CookieJar();
    page = await visit(t, jar2, authorizeUrl(client, { resource: mcp(), challenge }));
    page = await visit(t, jar2, formAction(page.html), { email: approver.email, password: approver.password });
    page = await visit(t, jar2, formAction(page.html), { role: 'viewer', decision: 'allow' });
    const code = page.callback!.searchParams.get('code')!;
    const wrong = await tokenRequest(client, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: pkce().verifier, resource: mcp() });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
  });

  it('the resource is required, and a token for /mcp is refused at /a2a and the reverse', async () => {
    const client = await registerClient(t, 'mcp');
    const missing = await visit(t, new CookieJar(), authorizeUrl(client, { resource: '', challenge: pkce().challenge }));
    expect(missing.callback?.searchParams.get('error')).toBe('invalid_target');
    const tokens = await connect(t, client, { email: approver.email, password: approver.password, role: 'viewer', resource: mcp() });
    const atA2a = await fetch(`${t.url}/a2a`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(atA2a.status).toBe(401);
    const a2aTokens = await connect(t, await registerClient(t, 'a2a'), { email: approver.email, password: approver.password, role: 'viewer', resource: `${t.url}/a2a` });
    const atMcp = await fetch(mcp(), { method: 'POST', headers: { authorization: `Bearer ${a2aTokens.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(atMcp.status).toBe(401);
    expect(atMcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // On REST an app's token is no credential at all.
    expect((await t.call('GET', '/api/v1/orders', undefined, { token: tokens.access_token })).status).toBe(401);
  });

  it('a refresh token rotates: the new one works, the old one is refused', async () => {
    const client = await registerClient(t, 'mcp');
    const tokens = await connect(t, client, { email: approver.email, password: approver.password, role: 'viewer', resource: mcp() });
    const refreshed = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: mcp() });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    expect(await toolsWith(refreshed.body.access_token)).toContain('find_orders');
    const reused = await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: mcp() });
    expect(reused.body.error).toBe('invalid_grant');
  });
});

describe('revocation (RFC 7009)', () => {
  it('a revoked access token stops working at once; revoking the refresh token ends the grant’s refreshing', async () => {
    const client = await registerClient(t, 'mcp');
    const tokens = await connect(t, client, { email: approver.email, password: approver.password, role: 'viewer', resource: mcp() });
    const revoke = (token: string) =>
      fetch(`${t.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token, client_id: client.clientId }).toString() });
    expect((await revoke(tokens.access_token)).status).toBe(200);
    expect((await fetch(mcp(), { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    expect((await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: mcp() })).body.error).toBe('invalid_grant');
  });
});

describe('the person behind the app, every request', () => {
  it('a lowered role lowers the app; a disabled person cuts it off; Disconnect revokes its tokens at once', async () => {
    const person = await makePerson(t, 'operator', 'oauth-operator');
    const client = await registerClient(t, 'mcp', 'Cut-off app');
    const tokens = await connect(t, client, { email: person.email, password: person.password, role: 'operator', resource: mcp() });
    expect(await toolsWith(tokens.access_token)).toContain('cancel_order');
    await t.call('PATCH', `/api/v1/team/${person.id}`, { role: 'viewer' });
    expect(await toolsWith(tokens.access_token)).not.toContain('cancel_order');
    await t.call('PATCH', `/api/v1/team/${person.id}`, { enabled: false });
    expect((await fetch(mcp(), { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    await t.call('PATCH', `/api/v1/team/${person.id}`, { enabled: true, role: 'operator' });
    expect(await toolsWith(tokens.access_token)).toContain('cancel_order');

    const cookie = (await makePersonCookie(person)).cookie;
    const account = await (await fetch(`${t.url}/account`, { headers: { cookie } })).text();
    const grantId = /data-connected-app="([^"]+)"/.exec(account)![1];
    const res = await fetch(`${t.url}/account/apps/${grantId}/disconnect`, { method: 'POST', redirect: 'manual', headers: { cookie, origin: t.url } });
    expect(res.status).toBe(303);
    expect((await fetch(mcp(), { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' })).status).toBe(401);
    expect((await tokenRequest(client, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, resource: mcp() })).body.error).toBe('invalid_grant');
    const audit = (await t.call('GET', '/api/v1/audit-events?type=oauth')).body.events;
    expect(audit[0]).toMatchObject({ action: 'oauth.app_disconnected', target: 'Cut-off app' });
  });
});

describe('restrictions follow the person', () => {
  it('a temporary password set by an operator makes the app’s requests 403 until the person chooses their own', async () => {
    const person = await makePerson(t, 'viewer', 'oauth-restricted');
    const tokens = await connect(t, await registerClient(t, 'mcp'), { email: person.email, password: person.password, role: 'viewer', resource: mcp() });
    expect((await t.call('POST', `/api/v1/team/${person.id}/reset-password`)).status).toBe(200);
    const res = await fetch(mcp(), { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe('Choose your own password on the Account page first');
  });
});

/** A fresh dashboard session of a person (their first one may have been ended by the tests). */
async function makePersonCookie(person: TestPerson): Promise<{ cookie: string }> {
  const { sessionCookie } = await import('../identity/identity-client.js');
  return { cookie: await sessionCookie(t, person.email, person.password) };
}
