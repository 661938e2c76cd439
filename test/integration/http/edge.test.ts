// HTTP edge: error shapes, body limits, security headers, 404s (spec "Errors", "Limits", "Browser protections").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

const SECURITY_HEADERS: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': /camera=\(\).*microphone=\(\).*geolocation=\(\).*payment=\(\)/,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

describe('HTTP edge', () => {
  it('GET /health answers { ok: true, service } without auth (spec "Other routes")', async () => {
    const res = await t.call('GET', '/health', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, service: 'order-orchestration' });
  });

  it('GET /health/deep runs real checks and reports each as ok (spec "Other routes")', async () => {
    const res = await t.call('GET', '/health/deep', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.checks.database).toBe('ok');
  });

  it('an unknown route is a JSON 404 (spec "Errors": 404 unknown route)', async () => {
    const res = await t.call('GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('every response carries the five security headers (spec "Browser protections")', async () => {
    for (const p of ['/health', '/api/v1/nothing-here', '/api/v1/openapi.json']) {
      const res = await t.call('GET', p);
      for (const [name, want] of Object.entries(SECURITY_HEADERS)) {
        const got = res.headers.get(name);
        if (typeof want === 'string') expect(got, `${p} ${name}`).toBe(want);
        else expect(got, `${p} ${name}`).toMatch(want);
      }
    }
  });

  it('invalid JSON is a 400 { error } (spec "Errors": 400 invalid body)', async () => {
    const res = await t.call('POST', '/api/v1/test/clock', undefined, { raw: '{"advanceMs": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid JSON body' });
  });

  it('a schema violation is a 400 with issues { path, message } per field (spec "REST shape")', async () => {
    const res = await t.call('POST', '/api/v1/test/clock', { advanceMs: 'soon' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBeTypeOf('string');
    expect(res.body.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'advanceMs', message: expect.any(String) })]));
  });

  it('a body of 1 MiB + 1 byte is a 413 { error } (spec "Limits": JSON body 1 MiB)', async () => {
    const big = '{"advanceMs":1,"pad":"' + 'x'.repeat(1024 * 1024 - 23) + '"}';
    expect(Buffer.byteLength(big)).toBe(1024 * 1024 + 1);
    const res = await t.call('POST', '/api/v1/test/clock', undefined, { raw: big, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body too large' });
  });

  it('a body of exactly 1 MiB is read (limit is inclusive)', async () => {
    const exact = '{"advanceMs":1,"pad":"' + 'x'.repeat(1024 * 1024 - 24) + '"}';
    expect(Buffer.byteLength(exact)).toBe(1024 * 1024);
    const res = await t.call('POST', '/api/v1/test/clock', undefined, { raw: exact, headers: { 'content-type': 'application/json' } });
    // The schema is strict, so the extra key is a 400 — but not a 413.
    expect(res.status).toBe(400);
  });

  it('no credential on /api/v1 is 401; a wrong bearer is 401 (spec "Errors": 401)', async () => {
    expect((await t.call('POST', '/api/v1/test/clock', { advanceMs: 0 }, { token: null })).status).toBe(401);
    const wrong = await t.call('POST', '/api/v1/test/clock', { advanceMs: 0 }, { token: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBeTypeOf('string');
  });

  it('GET /api/v1/openapi.json is public OpenAPI 3.1, cacheable 5 minutes (spec "Endpoints")', async () => {
    const res = await t.call('GET', '/api/v1/openapi.json', undefined, { token: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.headers.get('cache-control')).toContain('max-age=300');
    expect(Object.keys(res.body.paths)).toContain('/api/v1/test/clock');
  });

  it('responses carry a request id', async () => {
    const res = await t.call('GET', '/health');
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]+$/);
  });
});
