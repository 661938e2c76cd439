// The authenticator reads method, headers and address only (application-layer issue): any transport can build its
// request without a web framework, and the rules stay the same (spec "Credentials accepted on REST").
import { describe, expect, it } from 'vitest';
import { Authenticator } from '../../../src/auth/authenticator.js';
import type { CredentialRequest } from '../../../src/auth/credential-request.js';
import type { Principal } from '../../../src/auth/principal.js';

const request = (headers: Record<string, string>, ip = '198.51.100.7'): CredentialRequest => ({
  method: 'POST',
  get: (name) => headers[name.toLowerCase()] ?? '',
  ip,
});
const operator: Principal = { kind: 'token', id: 't1', role: 'operator', actor: 'token:ci', via: 'bearer' };
const viewer: Principal = { kind: 'person', id: 'p1', role: 'viewer', actor: 'ann@example.com', via: 'session' };

function authenticator(log: string[] = []) {
  return new Authenticator()
    .addBearer(async (secret, req) => {
      log.push(`resolver ${req.ip}`);
      return secret === 'svc_live_good' ? operator : null;
    })
    .setBearerFallback(async (secret) => {
      log.push(`fallback ${secret}`);
      throw Object.assign(new Error('Invalid credential'), { status: 401 });
    })
    .setSessions(async (req) => (req.get('cookie') === 'svc_session=ok' ? viewer : null));
}

describe('Authenticator over a plain credential request', () => {
  it('a bearer token resolves through the resolvers, with the address the transport gives, never reaching the fallback', async () => {
    const log: string[] = [];
    expect(await authenticator(log).authenticate(request({ authorization: 'Bearer svc_live_good' }))).toBe(operator);
    expect(log).toEqual(['resolver 198.51.100.7']);
  });

  it('a bearer no resolver knows goes to the fallback; a non-bearer Authorization is a 401', async () => {
    const log: string[] = [];
    await expect(authenticator(log).authenticate(request({ authorization: 'Bearer nope' }))).rejects.toThrow('Invalid credential');
    expect(log).toEqual(['resolver 198.51.100.7', 'fallback nope']);
    await expect(authenticator().authenticate(request({ authorization: 'Basic dTpw' }))).rejects.toThrow('Authorization must be a Bearer credential');
  });

  it('without Authorization the session resolver decides; no credential at all is null, and require() makes it 401', async () => {
    expect(await authenticator().authenticate(request({ cookie: 'svc_session=ok' }))).toBe(viewer);
    expect(await authenticator().authenticate(request({}))).toBeNull();
    await expect(authenticator().require(request({}), 'viewer')).rejects.toThrow('Authentication required');
  });

  it('require() checks the role server-side: a viewer is refused an operator action (403)', async () => {
    await expect(authenticator().require(request({ cookie: 'svc_session=ok' }), 'operator')).rejects.toMatchObject({ kind: 'forbidden' });
    expect(await authenticator().require(request({ authorization: 'Bearer svc_live_good' }), 'operator')).toBe(operator);
  });

  it('one request object is resolved once; forget() makes the next check resolve again', async () => {
    const log: string[] = [];
    const auth = authenticator(log);
    const req = request({ authorization: 'Bearer svc_live_good' });
    await auth.authenticate(req);
    await auth.require(req, 'viewer');
    expect(log).toHaveLength(1);
    auth.forget(req);
    await auth.authenticate(req);
    expect(log).toHaveLength(2);
  });
});
