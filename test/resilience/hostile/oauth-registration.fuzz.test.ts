// Hostile input on dynamic client registration and the consent flow (issue 28; security review 2 M-4, M-5, L-2):
// generated registration bodies never get a 5xx; a registered client only ever holds redirect URIs and a name the
// policy allows; a refused registration stores nothing; /oauth/authorize and the consent pages with generated
// parameters never get a 5xx.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyRedirectUri, MAX_CLIENT_NAME_CHARS } from '../../../src/oauth/client-registration-policy.js';
import { startTestService, type TestService } from '../../support/test-service.js';
import { freshLoopbackAddress, postJsonFrom } from '../../integration/oauth/oauth-client.js';
import { SIZES } from '../support/resilience-size.js';
import { resilienceSeed } from '../support/seed.js';
import { anyJson, HOSTILE_STRINGS } from './schema-arbitrary.js';

let t: TestService;
const seed = resilienceSeed('hostile oauth registration');
beforeAll(async () => {
  t = await startTestService({ redis: false });
});
afterAll(async () => {
  await t?.close();
});

/** Mostly `good`, now and then `bad`: most bodies get past the first check, so the later ones are reached. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: bad, weight: 1 });

const goodRedirect = fc.constantFrom('https://app.example/cb', 'http://127.0.0.1:3000/cb', 'http://[::1]/cb', 'http://localhost/cb', 'cursor://cb', 'com.example.app:/cb', 'HTTP://LOCALHOST/cb');
const badRedirect = fc.oneof(
  fc.constantFrom(
    'http://evil.example/cb', 'http://127.0.0.1.evil.example/cb', 'javascript:alert(1)', 'data:,x', 'file:///x', 'ws://localhost/', 'ftp://x/',
    'https://app.example/cb#f', 'http://localhost@evil.example/', 'https://', 'x:', ':', '//evil.example/cb',
  ),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.string({ maxLength: 40 }).map((s) => `${s}:/cb`),
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constant(`https://app.example/${'x'.repeat(3_000)}`),
);
const redirectUri = fc.oneof({ arbitrary: goodRedirect, weight: 12 }, { arbitrary: badRedirect, weight: 1 });
/** An optional field: usually absent or fine, now and then odd. */
const optional = <T>(...odd: T[]) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, { arbitrary: fc.constantFrom(...odd), weight: 1 });

const registration = fc.record(
  {
    client_name: mostly(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.integer({ min: 150, max: 5_000 }).map((n) => 'n'.repeat(n)), anyJson(1))),
    redirect_uris: mostly(fc.array(redirectUri, { minLength: 1, maxLength: 12 }), anyJson(1)),
    grant_types: mostly(fc.constant(['authorization_code', 'refresh_token']), anyJson(1)),
    response_types: mostly(fc.constant(['code']), anyJson(1)),
    token_endpoint_auth_method: mostly(fc.constant('none'), fc.constantFrom('client_secret_basic', 'private_key_jwt', '', null)),
    application_type: optional<unknown>('web', 'native', 'other', 1),
    response_modes: optional<unknown>(['form_post'], ['query'], 'form_post', []),
    scope: optional('viewer', 'operator offline_access', 'admin', ''),
    client_uri: optional('https://app.example', 'javascript:alert(1)', 'x'.repeat(2_000)),
    contacts: optional<unknown>(['a@example.com'], ['not an email'], 'a@example.com'),
  },
  { requiredKeys: ['redirect_uris'] },
);

const body = fc.oneof(
  { arbitrary: registration.map((r) => JSON.stringify(r)), weight: 8 },
  { arbitrary: anyJson().map((v) => JSON.stringify(v) ?? 'null'), weight: 1 },
  { arbitrary: fc.constantFrom('', 'not json', '{', '[]', 'null', '{"redirect_uris":', '\u0000'), weight: 1 },
);

const storedClients = async () =>
  (await t.service.ctx.db.query<{ payload: { redirect_uris?: string[]; client_name?: string } }>(`SELECT payload FROM oauth_store WHERE model = 'Client'`)).rows.map((r) => r.payload);

describe('hostile registrations at /oauth/register', () => {
  it('never a 5xx; a 201 holds only allowed redirect URIs and a short name; a refusal stores nothing', async () => {
    const bodies = fc.sample(body, { seed, numRuns: SIZES.fuzzRuns * 3 });
    let created = 0;
    for (const raw of bodies) {
      const before = (await storedClients()).length;
      const res = await postJsonFrom(`${t.url}/oauth/register`, raw, freshLoopbackAddress());
      expect(res.status, `${raw.slice(0, 300)} -> ${res.text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status === 201) created++;
      else {
        expect(res.status, raw.slice(0, 300)).toBeGreaterThanOrEqual(400);
        expect(typeof res.body?.error, res.text.slice(0, 300)).toBe('string');
        expect((await storedClients()).length).toBe(before);
      }
    }
    const clients = await storedClients();
    expect(created).toBeGreaterThan(0);
    expect(clients.length).toBe(created);
    for (const c of clients) {
      for (const uri of c.redirect_uris ?? []) expect(classifyRedirectUri(uri), uri).not.toHaveProperty('refused');
      expect([...(c.client_name ?? '')].length).toBeLessThanOrEqual(MAX_CLIENT_NAME_CHARS);
    }
  });
});

describe('hostile parameters on the consent flow', () => {
  it('/oauth/authorize and the consent pages never answer 5xx, whatever the parameters', async () => {
    const param = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(...HOSTILE_STRINGS), fc.constant('x'.repeat(3_000)));
    const query = fc.dictionary(
      fc.constantFrom('client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'resource', 'code_challenge', 'code_challenge_method', 'response_mode', 'prompt', 'request'),
      param,
      { maxKeys: 8 },
    );
    for (const q of fc.sample(query, { seed, numRuns: SIZES.fuzzRuns })) {
      const res = await fetch(`${t.url}/oauth/authorize?${new URLSearchParams(q as Record<string, string>).toString()}`, { redirect: 'manual' });
      expect(res.status, JSON.stringify(q).slice(0, 300)).toBeLessThan(500);
      if (res.headers.get('content-type')?.includes('html')) expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    }
    for (const value of fc.sample(param, { seed, numRuns: SIZES.fuzzRuns })) {
      // encodeURIComponent refuses lone surrogates; the edge suite sends those raw.
      const uid = value.replace(/[\ud800-\udfff]/g, '');
      const path = `/oauth/consent/${encodeURIComponent(uid) || 'x'}`;
      expect((await fetch(`${t.url}${path}`)).status, path).toBeLessThan(500);
      const posted = await fetch(`${t.url}${path}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `decision=${encodeURIComponent(uid)}&role=operator` });
      expect(posted.status, path).toBeLessThan(500);
    }
  });
});
