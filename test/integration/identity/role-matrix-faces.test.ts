// Role matrix of the other faces: MCP tools, A2A skills and the pages answer every caller by the role the registry gives each operation.
import { readFileSync } from 'node:fs';
import { TaskState } from '@a2a-js/sdk';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { roleAtLeast, roles, type Role } from '../../../src/auth/roles.js';
import type { AnyOperation } from '../../../src/application/operation.js';
import type { OperationName } from '../../../src/application/operation-types.js';
import { asTask, client10, dataMessage, send, statusText } from '../a2a/a2a-support.js';
import { getPage, makePerson, makeToken, postForm, type FormResponse } from './identity-client.js';

let t: TestService;
const tokens: Partial<Record<Role, string>> = {};
const cookies: Partial<Record<Role, string>> = {};

beforeAll(async () => {
  t = await startTestService();
  for (const role of roles) {
    tokens[role] = (await makeToken(t, role, 'never', `faces-${role}`)).secret;
    cookies[role] = (await makePerson(t, role, `faces-${role}`)).cookie;
  }
});
afterAll(async () => {
  await t?.close();
});

/** The caller (token or session cookie) of `role`, made in beforeAll. */
const callerOf = <T>(table: Partial<Record<Role, T>>, role: Role): T => {
  const value = table[role];
  if (value === undefined) throw new Error(`no ${role} caller`);
  return value;
};

/** The registry's own answer to a role below an operation's (src/domain/errors.ts RoleRequiredError). */
const roleRefusal = (role: Role) => `This needs the ${role} role`;
const ROLE_REFUSAL = /needs the \w+ role/;

/** An id that names nothing, so a call that passes the role check changes nothing. */
const NOTHING = 'matrix-unknown';

/** The agents' tools, read from the registry. */
const agentTools = (): AnyOperation[] => t.service.ctx.operations.list().filter((op) => op.audience === 'agents');

/**
 * An input for `op` that passes its role check and then changes nothing: its example with every id naming
 * nothing; a write that names nothing to miss (run_stock_review) gets an unknown field, so its schema refuses it
 * (the registry reads the input only past the role check, so that refusal still proves the role was reached).
 */
function harmlessInput(op: AnyOperation): { input: Record<string, unknown>; refusedInput: boolean } {
  const example: unknown = op.example ?? {};
  const input: Record<string, unknown> = typeof example === 'object' && example !== null ? { ...example } : {};
  let named = false;
  for (const key of Object.keys(input))
    if (key === 'id' || key.endsWith('Id')) {
      input[key] = NOTHING;
      named = true;
    }
  if (op.effect === 'write' && !named) return { input: { ...input, matrixProbe: true }, refusedInput: true };
  return { input, refusedInput: false };
}

/** Runs `body` with each named registry operation needing `role` (as if its definition said so), then restores them. */
async function withRole(names: readonly string[], role: Role, body: () => Promise<void>): Promise<void> {
  const ops = names.map((name) => {
    const op = t.service.ctx.operations.get(name);
    if (!op) throw new Error(`no operation ${name} in the registry`);
    return { op, was: op.role };
  });
  for (const { op } of ops) op.role = role;
  try {
    await body();
  } finally {
    for (const { op, was } of ops) op.role = was;
  }
}

/** A connected official MCP client acting with `token`. */
async function mcpClientAs(token: string): Promise<Client> {
  const client = new Client({ name: 'role-matrix', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', t.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
/** The text contents of a tool result, joined. */
function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content: unknown = result.content;
  if (!Array.isArray(content)) return '';
  return content.map((c: unknown) => (typeof c === 'object' && c !== null && 'text' in c && typeof c.text === 'string' ? c.text : '')).join('');
}

/** MCP tools/list for `role` is exactly the agents' tools but chat whose registry role `role` reaches. */
async function checkMcpList(role: Role): Promise<void> {
  const expected = agentTools()
    .filter((op) => op.name !== 'chat' && roleAtLeast(role, op.role))
    .map((op) => op.name)
    .sort();
  expect(expected.length).toBeGreaterThan(0);
  const client = await mcpClientAs(callerOf(tokens, role));
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort(), role).toEqual(expected);
  } finally {
    await client.close();
  }
}

/** MCP tools/call for `role`: above a tool's registry role an isError result naming it (input `{}`); at or above, never a role refusal. */
async function checkMcpCalls(role: Role): Promise<void> {
  const client = await mcpClientAs(callerOf(tokens, role));
  try {
    for (const op of agentTools().filter((o) => o.name !== 'chat')) {
      if (roleAtLeast(role, op.role)) {
        const { input, refusedInput } = harmlessInput(op);
        const result = await client.callTool({ name: op.name, arguments: input });
        const label = `${role} ${op.name} -> ${textOf(result).slice(0, 200)}`;
        expect(textOf(result), label).not.toMatch(ROLE_REFUSAL);
        if (refusedInput) expect(textOf(result), label).toMatch(/^Invalid input: .*"matrixProbe"/);
      } else {
        const result = await client.callTool({ name: op.name, arguments: {} });
        expect(result.isError, `${role} ${op.name}`).toBe(true);
        expect(textOf(result), `${role} ${op.name}`).toBe(roleRefusal(op.role));
      }
    }
  } finally {
    await client.close();
  }
}

/** A2A for `role`: a skill above its registry role ends REJECTED naming it (input `{}`); at or above, it runs or fails on the unknown id. */
async function checkA2a(role: Role): Promise<void> {
  const client = await client10(t, callerOf(tokens, role));
  for (const op of agentTools()) {
    const above = !roleAtLeast(role, op.role);
    const { input, refusedInput } = harmlessInput(op);
    const task = asTask(await client.sendMessage(send(dataMessage({ skill: op.name, input: above ? {} : input }))));
    const label = `${role} ${op.name} -> ${String(task.status?.state)} ${statusText(task).slice(0, 200)}`;
    if (above) {
      expect(task.status?.state, label).toBe(TaskState.TASK_STATE_REJECTED);
      expect(statusText(task), label).toBe(roleRefusal(op.role));
    } else if (refusedInput) {
      // Refused by its schema, which the registry reads only past the role check.
      expect(task.status?.state, label).toBe(TaskState.TASK_STATE_REJECTED);
      expect(statusText(task), label).toMatch(/^Invalid input: .*"matrixProbe"/);
    } else {
      // Ran (completed) or refused by a domain rule (FAILED: the id names nothing), never REJECTED.
      expect([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED], label).toContain(task.status?.state);
      expect(statusText(task), label).not.toMatch(ROLE_REFUSAL);
    }
  }
}

describe('MCP role matrix (contract section 11: tools by role, refusals as isError naming the role)', () => {
  for (const role of roles) {
    it(`${role} token: tools/list is exactly the agents' tools but chat that the registry lets a ${role} call`, () => checkMcpList(role));
    it(`${role} token: tools/call above the tool's registry role is an isError result naming that role (even with {} input); at or above it the role is not the refusal`, () =>
      checkMcpCalls(role));
  }
});

describe('A2A role matrix (contract section 11: a refused role ends REJECTED naming the role)', () => {
  for (const role of roles)
    it(`${role} token: each skill above its registry role ends REJECTED naming that role; at or above it the task is not refused for its role`, () => checkA2a(role));
});

/**
 * The page routes that perform registry operations, by operation NAME only: each page's role is the highest
 * registry role of its operations, read at run time. A form page (GET /orders/new, GET /flows/:id/edit) is
 * listed with the operation its form performs.
 */
interface PageRow {
  method: 'GET' | 'POST';
  path: string;
  operations: OperationName[];
}
const PAGES: PageRow[] = [
  // Dashboard (src/web/dashboard/dashboard-router.ts)
  { method: 'GET', path: '/orders', operations: ['listOrders'] },
  { method: 'GET', path: '/orders/new', operations: ['listFlows', 'startOrder'] },
  { method: 'POST', path: '/orders/new', operations: ['listFlows', 'startOrder'] },
  { method: 'GET', path: '/orders/:id', operations: ['getOrder', 'listOrderPayouts', 'listOrderSellerOrders'] },
  { method: 'GET', path: '/orders/:id/live', operations: ['getOrder', 'listOrderPayouts', 'listOrderSellerOrders'] },
  { method: 'POST', path: '/orders/:id/restart', operations: ['restartOrder'] },
  { method: 'POST', path: '/orders/:id/returns', operations: ['startReturn'] },
  { method: 'GET', path: '/batches', operations: ['listBatches'] },
  { method: 'GET', path: '/approvals', operations: ['listApprovals'] },
  { method: 'GET', path: '/flows', operations: ['listFlows'] },
  // "New flow" opens the editor, whose form saves the draft.
  { method: 'POST', path: '/flows', operations: ['listFlows', 'saveFlowDraft'] },
  { method: 'GET', path: '/flows/:id', operations: ['getFlow', 'listNodeTypes', 'getFlowPaths'] },
  { method: 'POST', path: '/flows/:id/publish', operations: ['publishFlow'] },
  { method: 'GET', path: '/flows/:id/edit', operations: ['getFlow', 'saveFlowDraft', 'listProducts', 'listOrders', 'getFlowDiff'] },
  { method: 'POST', path: '/flows/:id/edit', operations: ['getFlow', 'saveFlowDraft', 'publishFlow', 'listProducts', 'listOrders', 'getFlowDiff'] },
  { method: 'GET', path: '/back-office', operations: ['listSellers', 'listPayouts', 'listProducts'] },
  { method: 'POST', path: '/back-office/payouts/:id/paid', operations: ['markPayoutPaid'] },
  { method: 'POST', path: '/back-office/stock-review', operations: ['runStockReview'] },
  // Identity (src/web/identity/identity-router.ts)
  { method: 'POST', path: '/account/api-tokens', operations: ['createApiToken'] },
  { method: 'POST', path: '/account/api-tokens/:id/revoke', operations: ['revokeApiToken'] },
  { method: 'GET', path: '/team', operations: ['listTeam', 'getSettings'] },
  { method: 'POST', path: '/team/people', operations: ['addPerson'] },
  { method: 'POST', path: '/team/people/:id/role', operations: ['updatePerson'] },
  { method: 'POST', path: '/team/people/:id/enabled', operations: ['updatePerson'] },
  { method: 'POST', path: '/team/people/:id/reset-password', operations: ['resetPassword'] },
  { method: 'POST', path: '/team/people/:id/reset-two-factor', operations: ['resetTwoFactor'] },
  { method: 'POST', path: '/team/two-factor-requirement', operations: ['updateSettings'] },
  { method: 'GET', path: '/audit', operations: ['listAuditEvents'] },
];

/** Routes of the two routers that perform no registry operation: assets, sign-in and sign-out, the Account page's own actions. */
const NO_OPERATION = [
  'GET /assets/dashboard.css',
  'GET /assets/dashboard.js',
  'GET /favicon.ico',
  'GET /',
  'GET /assets/identity.css',
  'GET /login',
  'POST /login',
  'GET /login/two-factor',
  'POST /login/two-factor',
  'POST /logout',
  // The Account page shows the API tokens section to whoever listApiTokens answers (page-operation-roles.test.ts); it refuses no one.
  'GET /account',
  'POST /account/password',
  'GET /account/two-factor',
  'POST /account/two-factor/start',
  'POST /account/two-factor',
  'POST /account/two-factor/disable',
  'POST /account/recovery-codes',
  'POST /account/sessions/end-others',
  'POST /account/sessions/:id/end',
];

/** `METHOD /path` of every route a router source file declares. */
function declaredRoutes(file: string): string[] {
  const source = readFileSync(new URL(`../../../src/web/${file}`, import.meta.url), 'utf8');
  return [...source.matchAll(/router\.(get|post|put|patch|delete)\(\s*'([^']+)'/g)].map((m) => `${m[1].toUpperCase()} ${m[2]}`);
}

/** The role a page needs: the highest registry role among its operations. */
function pageRole(row: PageRow): Role {
  const needs = row.operations.map((name) => {
    const op = t.service.ctx.operations.get(name);
    if (!op) throw new Error(`${row.method} ${row.path}: no operation ${name} in the registry`);
    return op.role;
  });
  return needs.reduce((a, b) => (roleAtLeast(a, b) ? a : b));
}

/** The page as a signed-in person sees it: ids name nothing, forms are empty (a same-origin post), so no answer changes state. */
function openPage(row: PageRow, cookie: string): Promise<FormResponse> {
  const path = row.path.replace(/:([A-Za-z0-9_]+)/g, NOTHING);
  return row.method === 'GET' ? getPage(t, path, cookie) : postForm(t, path, {}, { cookie });
}

/** Each page for a `role` session: 403 naming the role when the page's registry role is above `role`, else no 403 (and no 5xx). */
async function checkPages(role: Role): Promise<void> {
  for (const row of PAGES) {
    const need = pageRole(row);
    const res = await openPage(row, callerOf(cookies, role));
    const label = `${role} ${row.method} ${row.path} (needs ${need}) -> ${res.status} ${res.text.slice(0, 160)}`;
    if (roleAtLeast(role, need)) {
      expect(res.status, label).not.toBe(403);
      expect(res.status, label).toBeLessThan(500);
    } else {
      expect(res.status, label).toBe(403);
      expect(res.text, label).toContain(`needs the ${need} role`);
    }
  }
}

describe('page role matrix (spec "Roles": a page answers by the role of the operations it performs)', () => {
  it('every dashboard and identity page route is in the table or named as performing no operation', () => {
    const declared = [...declaredRoutes('dashboard/dashboard-router.ts'), ...declaredRoutes('identity/identity-router.ts')].sort();
    const classified = [...PAGES.map((p) => `${p.method} ${p.path}`), ...NO_OPERATION].sort();
    expect(declared).toEqual(classified);
  });

  for (const role of roles)
    it(`${role} session: 403 naming the role on each page whose operation's registry role is above ${role}; no 403 at or above it`, () => checkPages(role));
});

describe('a role changed in the registry reaches every face (issue 30: one place decides roles)', () => {
  it('with every operation lowered to viewer in the live registry, a viewer is refused by no MCP tool, A2A skill or page', async () => {
    const all = t.service.ctx.operations.list().map((op) => op.name);
    await withRole(all, 'viewer', async () => {
      await checkMcpList('viewer');
      await checkMcpCalls('viewer');
      await checkA2a('viewer');
      await checkPages('viewer');
    });
    // Restored: the viewer is refused again where the registry says so.
    await checkPages('viewer');
  });
});
