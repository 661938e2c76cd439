// The identity pages answer with their registry operation's role (issue 30): lowering the operation's role in the registry changes the page's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import type { OperationName } from '../../../src/application/operation-types.js';
import type { Role } from '../../../src/auth/roles.js';
import { dataAttr, getPage, makePerson, postForm, type TestPerson } from './identity-client.js';

let t: TestService;
let viewer: TestPerson;
beforeAll(async () => {
  t = await startTestService();
  viewer = await makePerson(t, 'viewer');
});
afterAll(async () => {
  await t?.close();
});

/** Runs `body` with the registered operation `name` needing `role`, as if identity-operations.ts said so. */
async function withRole(name: OperationName, role: Role, body: () => Promise<void>): Promise<void> {
  const op = t.service.ctx.operations.get(name)!;
  const was = op.role;
  op.role = role;
  try {
    await body();
  } finally {
    op.role = was;
  }
}

describe('identity pages take their roles from the registry operations', () => {
  it("a viewer adding a person on /team gets addPerson's refusal (403 page naming its role); with addPerson lowered to viewer the page adds them", async () => {
    const refused = await postForm(t, '/team/people', { email: 'lowered-1@example.test', role: 'viewer' }, { cookie: viewer.cookie });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This page needs the operator role.');
    await withRole('addPerson', 'viewer', async () => {
      // The page re-renders the team with listTeam: lowered too, as a role change would be.
      await withRole('listTeam', 'viewer', async () => {
        const added = await postForm(t, '/team/people', { email: 'lowered-1@example.test', role: 'viewer' }, { cookie: viewer.cookie });
        expect(added.status).toBe(201);
        expect(dataAttr(added.text, 'temporary-password')).toHaveLength(20);
      });
    });
    await withRole('addPerson', 'approver', async () => {
      const named = await postForm(t, '/team/people', { email: 'lowered-2@example.test', role: 'viewer' }, { cookie: viewer.cookie });
      expect(named.status).toBe(403);
      expect(named.text).toContain('This page needs the approver role.');
    });
  });

  it("the Account page shows the API tokens section to whoever listApiTokens answers", async () => {
    expect((await getPage(t, '/account', viewer.cookie)).text).not.toContain('API tokens');
    await withRole('listApiTokens', 'viewer', async () => {
      expect((await getPage(t, '/account', viewer.cookie)).text).toContain('API tokens');
    });
  });

  it("an input addPerson's schema refuses is the form's message (400), with no check of the page's own", async () => {
    const op = await makePerson(t, 'operator');
    const bad = await postForm(t, '/team/people', { email: 'not-an-email', role: 'viewer' }, { cookie: op.cookie });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Give a valid email and a role.');
    const role = await postForm(t, '/team/people', { email: 'fine@example.test', role: 'owner' }, { cookie: op.cookie });
    expect(role.status).toBe(400);
  });
});
