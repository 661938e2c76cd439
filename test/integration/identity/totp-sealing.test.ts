// TOTP secrets at rest (security review L6): purpose key `totp/v1`, person id as AAD; legacy-sealed values still work and get re-sealed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { totpCode } from '../../../src/auth/totp.js';
import { deriveSecretKey, openSecret, sealSecret } from '../../../src/auth/secret-box.js';
import {
  CHALLENGE_COOKIE,
  COOKIE,
  dataAttr,
  enrolTwoFactor,
  getPage,
  login,
  makePerson,
  pendingTotpSecret,
  postForm,
  serverNow,
  type TestPerson,
} from './identity-client.js';

let database: TestDatabase;
let t: TestService;
beforeAll(async () => {
  database = await createTestDatabase();
  t = await startTestService({ database });
});
afterAll(async () => {
  await t?.close();
  await database?.drop();
});

const PREFIX = 'totp1:';
const secretKey = () => t.service.ctx.secretKey;

async function column(personId: string, name: 'totp_secret' | 'totp_pending_secret'): Promise<string | null> {
  const { rows } = await database.db.query(`SELECT ${name} AS v FROM people WHERE id = $1`, [personId]);
  return rows[0].v;
}
const setColumn = (personId: string, name: 'totp_secret' | 'totp_pending_secret', value: string | null) =>
  database.db.query(`UPDATE people SET ${name} = $2 WHERE id = $1`, [personId, value]);

/** The code of a step no earlier code of this test used (each step's code works once per person). */
async function freshCode(secret: string): Promise<string> {
  const now = await t.advance(30_000);
  return totpCode(secret, Math.floor(now / 1000));
}

/** Password step then code step; returns the code step's response. */
async function signInWithCode(p: TestPerson, code: string) {
  const first = await login(t, p.email, p.password);
  expect(first.location).toBe('/login/two-factor');
  return postForm(t, '/login/two-factor', { code }, { cookie: `${CHALLENGE_COOKIE}=${first.cookies[CHALLENGE_COOKIE]}` });
}

describe('TOTP secrets are sealed per purpose and per person (security review L6)', () => {
  it('an enabled and a pending secret are sealed under the totp/v1 purpose key with the person id as AAD', async () => {
    const p = await makePerson(t, 'viewer');
    const { secret } = await enrolTwoFactor(t, p);
    const stored = (await column(p.id, 'totp_secret'))!;
    expect(stored.startsWith(PREFIX)).toBe(true);
    const sealed = stored.slice(PREFIX.length);
    expect(openSecret(deriveSecretKey(secretKey(), 'totp/v1'), sealed, p.id)).toBe(secret);
    expect(() => openSecret(secretKey(), sealed)).toThrow();
    expect(() => openSecret(deriveSecretKey(secretKey(), 'totp/v1'), sealed, 'usr_someone_else')).toThrow();

    const q = await makePerson(t, 'viewer');
    const pending = await pendingTotpSecret(t, q.cookie);
    const storedPending = (await column(q.id, 'totp_pending_secret'))!;
    expect(openSecret(deriveSecretKey(secretKey(), 'totp/v1'), storedPending.slice(PREFIX.length), q.id)).toBe(pending);
  });

  it("a sealed secret moved into another person's row does not open there (no sign-in, no enrolment, no 500)", async () => {
    const alice = await makePerson(t, 'viewer', 'alice');
    const bob = await makePerson(t, 'viewer', 'bob');
    const { secret: aliceSecret } = await enrolTwoFactor(t, alice);
    const { codes: bobCodes } = await enrolTwoFactor(t, bob);
    await setColumn(bob.id, 'totp_secret', await column(alice.id, 'totp_secret'));
    const moved = await signInWithCode(bob, await freshCode(aliceSecret));
    expect(moved.status).toBe(401);
    expect(moved.text).toContain('That code is not correct');
    // Bob's recovery codes are not sealed secrets: they still work.
    expect((await signInWithCode(bob, bobCodes[0])).status).toBe(303);

    const carol = await makePerson(t, 'viewer', 'carol');
    const dave = await makePerson(t, 'viewer', 'dave');
    const carolPending = await pendingTotpSecret(t, carol.cookie);
    await setColumn(dave.id, 'totp_pending_secret', await column(carol.id, 'totp_pending_secret'));
    const page = await getPage(t, '/account/two-factor', dave.cookie);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(carolPending);
    // What does not open counts as no pending secret: the page shows a fresh one of Dave's own.
    expect(dataAttr(page.text, 'totp-secret')).toMatch(/^[A-Z2-7]+=*$/);
    expect(dataAttr(page.text, 'totp-secret')).not.toBe(carolPending);
    const enable = await postForm(t, '/account/two-factor', { password: dave.password, code: await freshCode(carolPending) }, { cookie: dave.cookie });
    expect(enable.status).toBe(400);
    expect(await column(dave.id, 'totp_secret')).toBeNull();
  });

  it('a secret sealed the legacy way (service key, no AAD) still signs in, and is re-sealed on that use', async () => {
    const p = await makePerson(t, 'approver');
    const { secret } = await enrolTwoFactor(t, p);
    const legacy = sealSecret(secretKey(), secret);
    await setColumn(p.id, 'totp_secret', legacy);
    const res = await signInWithCode(p, await freshCode(secret));
    expect(res.status).toBe(303);
    expect(res.cookies[COOKIE]).toBeTruthy();
    const stored = (await column(p.id, 'totp_secret'))!;
    expect(stored.startsWith(PREFIX)).toBe(true);
    expect(openSecret(deriveSecretKey(secretKey(), 'totp/v1'), stored.slice(PREFIX.length), p.id)).toBe(secret);
    // And the re-sealed value keeps working.
    expect((await signInWithCode(p, await freshCode(secret))).status).toBe(303);
  });

  it('a pending secret sealed the legacy way is shown (without being rewritten) and enrols, sealed afresh', async () => {
    const p = await makePerson(t, 'viewer');
    const secret = await pendingTotpSecret(t, p.cookie);
    const legacy = sealSecret(secretKey(), secret);
    await setColumn(p.id, 'totp_pending_secret', legacy);
    const page = await getPage(t, '/account/two-factor', p.cookie);
    expect(dataAttr(page.text, 'totp-secret')).toBe(secret);
    expect(await column(p.id, 'totp_pending_secret')).toBe(legacy);
    const now = await serverNow(t);
    const ok = await postForm(t, '/account/two-factor', { password: p.password, code: totpCode(secret, Math.floor(now / 1000)) }, { cookie: p.cookie });
    expect(ok.status, ok.text.slice(0, 500)).toBe(200);
    expect((await column(p.id, 'totp_secret'))!.startsWith(PREFIX)).toBe(true);
  });

  it('every legacy-sealed secret, enabled or pending, is re-sealed when the service starts', async () => {
    const enabled = await makePerson(t, 'viewer');
    const { secret } = await enrolTwoFactor(t, enabled);
    const pendingPerson = await makePerson(t, 'viewer');
    const pending = await pendingTotpSecret(t, pendingPerson.cookie);
    await setColumn(enabled.id, 'totp_secret', sealSecret(secretKey(), secret));
    await setColumn(pendingPerson.id, 'totp_pending_secret', sealSecret(secretKey(), pending));

    // A restart on the same database (the key lives there too) runs the start-up sweep.
    await t.close();
    t = await startTestService({ database });
    const storedEnabled = (await column(enabled.id, 'totp_secret'))!;
    const storedPending = (await column(pendingPerson.id, 'totp_pending_secret'))!;
    expect(storedEnabled.startsWith(PREFIX)).toBe(true);
    expect(storedPending.startsWith(PREFIX)).toBe(true);
    expect(openSecret(deriveSecretKey(secretKey(), 'totp/v1'), storedEnabled.slice(PREFIX.length), enabled.id)).toBe(secret);
    expect(openSecret(deriveSecretKey(secretKey(), 'totp/v1'), storedPending.slice(PREFIX.length), pendingPerson.id)).toBe(pending);
    expect((await signInWithCode(enabled, await freshCode(secret))).status).toBe(303);
  });
});
