// Connected apps on /a2a: an oauth4webapi client does discovery, registration and the code flow with PKCE for the A2A
// resource; the official @a2a-js/sdk client then places an order with that token, recorded as <email> via A2A.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import type { TestService } from '../../support/test-service.js';
import { makePerson } from '../identity/identity-client.js';
import { CookieJar, formAction, REDIRECT_URI, visit } from './oauth-client.js';
import { asTask, client10, dataMessage, send, startA2aService } from '../a2a/a2a-support.js';
import { graphs, publishFlow } from '../orders/orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startA2aService();
  await publishFlow(t, 'a2a-oauth-flow', graphs.eventWait);
});
afterAll(async () => {
  await t?.close();
});

/** oauth4webapi talks to our http test server: TLS is waived for the test only. */
const insecure = { [oauth.allowInsecureRequests]: true };

describe('an A2A agent connects with OAuth', () => {
  it('the card names the authorization server; a token for /a2a places an order recorded as <email> via A2A', async () => {
    const person = await makePerson(t, 'operator', 'a2a-oauth');
    const card = await (await fetch(`${t.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(card.securitySchemes.oauth.oauth2SecurityScheme.oauth2MetadataUrl).toBe(`${t.url}/.well-known/oauth-authorization-server`);

    const resource = `${t.url}/a2a`;
    const unauthenticated = await fetch(resource, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${t.url}/.well-known/oauth-protected-resource/a2a"`);

    const issuer = new URL(t.url);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { client_name: 'oauth4webapi agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }, insecure),
    );
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    for (const [k, v] of Object.entries({
      client_id: client.client_id, redirect_uri: REDIRECT_URI, response_type: 'code', scope: 'operator', state, resource,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    })) url.searchParams.set(k, v);

    const jar = new CookieJar();
    let page = await visit(t, jar, url.toString());
    page = await visit(t, jar, formAction(page.html), { email: person.email, password: person.password });
    page = await visit(t, jar, formAction(page.html), { role: 'operator', decision: 'allow' });
    const params = oauth.validateAuthResponse(as, client, page.callback!, state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, { additionalParameters: { resource }, ...insecure }),
    );
    expect(tokens.scope).toBe('operator');

    const a2a = await client10(t, tokens.access_token);
    const task = asTask(await a2a.sendMessage(send(dataMessage({ skill: 'place_order', input: { flowId: 'a2a-oauth-flow', input: { model: 'b2c', title: 'via A2A' } } }))));
    const { rows } = await t.service.ctx.db.query("SELECT o.id, g.started_by FROM orders o JOIN order_origins g ON g.order_id = o.id WHERE o.title = 'via A2A'");
    expect(rows).toHaveLength(1);
    expect(rows[0].started_by).toBe(`${person.email} via A2A`);
    expect(task.id).toBeTruthy();

    // The same token is no credential at /mcp.
    const atMcp = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(atMcp.status).toBe(401);
  });
});
