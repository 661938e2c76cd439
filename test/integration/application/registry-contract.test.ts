// Registry contract: every operation the service registers is complete (name, docs, role, effect, schemas); API
// operations are reachable over REST through exactly one binding; agents' tools are exactly contract section 11's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestService, type TestService } from '../../support/test-service.js';
import { REST_BINDINGS } from '../../../src/http/rest/rest-bindings.js';
import { AGENT_TOOL_NAMES } from '../../../src/application/operations/agent-tools.js';
import { roles } from '../../../src/auth/roles.js';
import { defineOperation } from '../../../src/application/operation.js';
import { agentToolFindings } from '../../support/agent-tool-check.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('operation registry contract', () => {
  it('every operation has a name, summary, description, feature, role, effect and zod input and output', () => {
    const ops = t.service.ctx.operations.list();
    expect(ops.length).toBeGreaterThanOrEqual(45);
    for (const op of ops) {
      expect(op.name, op.name).toMatch(op.audience === 'agents' ? /^[a-z]+(_[a-z]+)*$/ : /^[a-z][A-Za-z]+$/);
      expect(op.summary.length, `${op.name} summary`).toBeGreaterThan(5);
      expect(op.description.length, `${op.name} description`).toBeGreaterThan(20);
      expect(op.feature, `${op.name} feature`).toMatch(/^[a-z-]+$/);
      expect(roles, `${op.name} role`).toContain(op.role);
      expect(['read', 'write'], `${op.name} effect`).toContain(op.effect);
      expect(op.input, `${op.name} input`).toBeInstanceOf(z.ZodObject);
      expect(op.output, `${op.name} output`).toBeInstanceOf(z.ZodType);
      if (op.example !== undefined) expect(op.input.safeParse(op.example).success, `${op.name} example`).toBe(true);
      // An operation that takes input documents it: an example for client developers and agents.
      if (op.effect === 'write' && Object.keys(op.input.shape).length > 0) expect(op.example, `${op.name} example`).toBeDefined();
    }
  });

  it('each API operation has exactly one REST binding, and each binding names a registered operation (optional ones aside)', () => {
    const api = t.service.ctx.operations.list().filter((op) => op.audience !== 'agents');
    for (const op of api) expect(REST_BINDINGS.filter((b) => b.operation === op.name).length, op.name).toBe(1);
    const names = api.map((op) => op.name);
    for (const binding of REST_BINDINGS) if (!binding.optional) expect(names, binding.operation).toContain(binding.operation);
  });

  it("the agents' tools are exactly the skills of the spec, with the spec's roles and access, and none is bound to REST", () => {
    const tools = t.service.ctx.operations.list().filter((op) => op.audience === 'agents');
    expect(tools.map((op) => op.name).sort()).toEqual([...AGENT_TOOL_NAMES].sort());
    const spec: Record<string, [string, string]> = {
      chat: ['viewer', 'read'], place_order: ['operator', 'write'], needs_attention: ['viewer', 'read'], find_orders: ['viewer', 'read'],
      get_order: ['viewer', 'read'], assess_order: ['viewer', 'read'], find_products: ['viewer', 'read'], list_flows: ['viewer', 'read'],
      get_flow: ['viewer', 'read'], flow_stats: ['viewer', 'read'], propose_flow_change: ['operator', 'read'], decide_approval: ['approver', 'write'],
      deliver_event: ['operator', 'write'], cancel_order: ['operator', 'write'], publish_flow: ['operator', 'write'], run_stock_review: ['operator', 'write'],
      // Contract 18 (returns).
      start_return: ['operator', 'write'],
      resolve_hold: ['operator', 'write'],
      simulate_flow: ['viewer', 'read'], flow_impact: ['viewer', 'read'],
      // Contract 15 (moving live orders to a new flow version).
      migrate_orders: ['operator', 'write'],
    };
    for (const op of tools) expect([op.role, op.effect], op.name).toEqual(spec[op.name]);
    for (const binding of REST_BINDINGS) expect(tools.map((op) => op.name)).not.toContain(binding.operation);
  });

  it('every tool of contract 11 is a REST-bound operation or an adapter of one (issue 30); a planted twin fails the check', () => {
    const ops = t.service.ctx.operations.list();
    const restBound = new Set(REST_BINDINGS.map((b) => b.operation));
    // chat is the assistant itself: it answers by calling the other tools, and MCP does not serve it.
    const tools = AGENT_TOOL_NAMES.filter((name) => name !== 'chat');
    expect(tools).toHaveLength(20);
    expect(agentToolFindings(ops, restBound, tools)).toEqual([]);
    for (const name of tools) expect(t.service.ctx.operations.get(name)?.adapterOf?.name, name).toMatch(/^[a-z][A-Za-z]+$/);
    const twin = defineOperation({
      name: 'get_order',
      summary: 'One order',
      description: 'A twin of getOrderBrief with its own SQL',
      feature: 'orders',
      audience: 'agents',
      role: 'viewer',
      effect: 'read',
      input: z.strictObject({ orderId: z.string() }),
      output: z.object({ status: z.string() }),
      run: async (_caller, input) => (await t.service.ctx.db.query<{ status: string }>('SELECT status FROM orders WHERE id = $1', [input.orderId])).rows[0],
    });
    const planted = ops.map((op) => (op.name === 'get_order' ? twin : op));
    expect(agentToolFindings(planted, restBound, tools)).toEqual(['get_order: neither bound to REST nor an adapter of a REST-bound operation (a twin with a run of its own)']);
  });

  it('the registry is what the REST edge calls: a viewer calling a write operation is refused by the registry itself', async () => {
    const viewer = { kind: 'person' as const, id: 'per_x', role: 'viewer' as const, actor: 'v@example.com', via: 'bearer' as const };
    const err = await t.service.ctx.operations.call('cancelOrder', viewer, { id: 'ord_x' }, { ip: null }).catch((e: unknown) => e);
    expect((err as { kind?: string }).kind).toBe('forbidden');
  });
});
