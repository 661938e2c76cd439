// The test clock route exists only with TEST_CLOCK=1 (contract section 6).
import { afterAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

const services: TestService[] = [];
afterAll(async () => {
  for (const s of services) await s.close();
});

describe('test clock', () => {
  it('POST /api/v1/test/clock is 404 without TEST_CLOCK=1, even for an operator', async () => {
    const t = await startTestService({ env: { TEST_CLOCK: undefined } });
    services.push(t);
    const res = await t.call('POST', '/api/v1/test/clock', { advanceMs: 1000 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });

  it('with TEST_CLOCK=1 it moves forward only, and needs an operator', async () => {
    const t = await startTestService();
    services.push(t);
    const before = Date.now();
    const a = await t.call('POST', '/api/v1/test/clock', { advanceMs: 60_000 });
    expect(a.status).toBe(200);
    expect(a.body.now).toBeGreaterThanOrEqual(before + 60_000);
    const back = await t.call('POST', '/api/v1/test/clock', { now: before });
    expect(back.status).toBe(400);
    const both = await t.call('POST', '/api/v1/test/clock', { now: before + 10 ** 9, advanceMs: 1 });
    expect(both.status).toBe(400);
    expect(both.body.issues).toBeDefined();
    expect((await t.call('POST', '/api/v1/test/clock', { advanceMs: 1 }, { token: null })).status).toBe(401);
  });
});
