// Issue 30 "one vocabulary": an agent tool is a REST-bound operation or a thin adapter of one (agentTool), and the check
// that holds src/ to it fails on a planted twin; adapter files import no database layer and hold no SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentTool } from '../../../src/application/agent-tool.js';
import { OperationRegistry } from '../../../src/application/operation-registry.js';
import { defineOperation, type CallContext } from '../../../src/application/operation.js';
import type { Principal } from '../../../src/auth/principal.js';
import { agentToolFindings } from '../../support/agent-tool-check.js';
import { importGraph } from '../../support/import-graph.js';

const operator: Principal = { kind: 'token', id: 'tok_1', role: 'operator', actor: 'token:ops', via: 'bearer' };
const viewer: Principal = { ...operator, role: 'viewer' };

const seen: { input: unknown; call: CallContext }[] = [];
const cancelOrder = defineOperation({
  name: 'cancelOrder',
  summary: 'Cancel',
  description: 'Cancels the order (a stand-in for the REST operation)',
  feature: 'orders',
  role: 'operator',
  effect: 'write',
  input: z.strictObject({ id: z.string(), reason: z.string().optional() }),
  output: z.object({ ok: z.literal(true) }),
  run: async (_caller, input, call) => {
    seen.push({ input, call });
    return { ok: true as const };
  },
});
const cancelTool = agentTool(cancelOrder, {
  name: 'cancel_order',
  summary: 'Cancel an order',
  description: 'The agents’ name and shape of cancelOrder',
  input: z.strictObject({ orderId: z.string(), reason: z.string().optional() }),
  output: z.object({ ok: z.literal(true), orderId: z.string() }),
  mapIn: (input, caller) => ({ id: input.orderId, reason: input.reason ?? `by ${caller.actor}` }),
  mapOut: (ok, given) => ({ ok: ok.ok, orderId: given.id }),
});
/** What the review found: a tool with a run of its own doing SQL. */
const twin = defineOperation({
  name: 'cancel_order',
  summary: 'Cancel an order',
  description: 'A twin: its own run, its own SQL',
  feature: 'orders',
  audience: 'agents',
  role: 'operator',
  effect: 'write',
  input: z.strictObject({ orderId: z.string() }),
  output: z.object({ ok: z.literal(true) }),
  run: async () => {
    const db = { query: async (_sql: string) => ({ rows: [] }) };
    await db.query("UPDATE orders SET status = 'cancelled'");
    return { ok: true as const };
  },
});

describe('agentTool: the base operation runs, with the input and output mapped', () => {
  it('runs the base with the mapped input and the same call context, answers the mapped output, and keeps the base’s role', async () => {
    const registry = new OperationRegistry({ checkOutputs: true }).add(cancelOrder, cancelTool);
    const call = { ip: '10.0.0.1' };
    expect(await registry.call('cancel_order', operator, { orderId: 'ord_1' }, call)).toEqual({ ok: true, orderId: 'ord_1' });
    expect(seen.at(-1)).toEqual({ input: { id: 'ord_1', reason: 'by token:ops' }, call });
    expect(seen.at(-1)?.call).toBe(call); // one request, one scope: per-request budgets hold across the adapter
    expect(cancelTool).toMatchObject({ audience: 'agents', role: 'operator', effect: 'write', feature: 'orders', adapterOf: cancelOrder });
    await expect(registry.call('cancel_order', viewer, { orderId: 'ord_1' }, call)).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(registry.callByName('cancel_order', operator, { id: 'ord_1' }, call)).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('passes a key space to its base only when it declares one', async () => {
    const tool = agentTool(cancelOrder, { ...toolSpec(), name: 'keyed_cancel', idempotencyScope: 'agents.keyed' });
    await tool.run(operator, { orderId: 'ord_2' }, { ip: null });
    expect(seen.at(-1)?.call).toEqual({ ip: null, idempotencyScope: 'agents.keyed' });
  });

  it('may not lower its base’s role', () => {
    expect(() => agentTool(cancelOrder, { ...toolSpec(), role: 'viewer' })).toThrow(/may not lower the role/);
  });
});

function toolSpec() {
  return {
    name: 'cancel_order',
    summary: 'Cancel an order',
    description: 'The agents’ name and shape of cancelOrder',
    input: z.strictObject({ orderId: z.string() }),
    output: z.object({ ok: z.literal(true) }),
    mapIn: (input: { orderId: string }) => ({ id: input.orderId }),
    mapOut: (ok: { ok: true }) => ok,
  };
}

describe('rule "every agent tool is a REST-bound operation or an adapter of one" (the check, on planted registries)', () => {
  const rest = new Set(['cancelOrder']);

  it('passes an adapter of a REST-bound operation', () => {
    expect(agentToolFindings([cancelOrder, cancelTool], rest, ['cancel_order'])).toEqual([]);
  });

  it('fails a planted twin: a tool with its own run doing SQL', () => {
    expect(agentToolFindings([cancelOrder, twin], rest, ['cancel_order'])).toEqual([
      'cancel_order: neither bound to REST nor an adapter of a REST-bound operation (a twin with a run of its own)',
    ]);
  });

  it('fails a twin that only names a base, an adapter of an unbound or unregistered base, and a missing tool', () => {
    const posing = { ...twin, adapterOf: cancelOrder };
    expect(agentToolFindings([cancelOrder, posing], rest, ['cancel_order'])).toEqual([
      'cancel_order: neither bound to REST nor an adapter of a REST-bound operation (a twin with a run of its own)',
    ]);
    expect(agentToolFindings([cancelOrder, cancelTool], new Set(), ['cancel_order'])).toEqual(['cancel_order: adapts cancelOrder, which REST does not bind']);
    const copy = { ...cancelOrder };
    expect(agentToolFindings([copy, cancelTool], rest, ['cancel_order'])).toEqual(['cancel_order: adapts cancelOrder, which is not the operation the registry holds']);
    expect(agentToolFindings([cancelOrder], rest, ['cancel_order'])).toEqual(['cancel_order: no registry operation']);
  });
});

/** The files that define agent tools: each adapter module of src/application/operations, and the adapter itself. */
const isAdapterFile = (file: string) => /^application\/(agent-tool\.ts|operations\/agent-[a-z-]+-tools\.ts)$/.test(file);
/** SQL in a string: a statement keyword followed by what a statement has next. */
const SQL = /\b(SELECT\s[\s\S]*?\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b/i;

/** What breaks rule "adapter files import no database layer and hold no SQL", one line per finding. */
function adapterFileFindings(root: string): string[] {
  const graph = importGraph(root);
  const findings: string[] = [];
  for (const [file, targets] of graph) {
    if (!isAdapterFile(file)) continue;
    for (const target of targets) if (target.startsWith('db/') || target === 'engine/runtime/waits.ts') findings.push(`${file} -> ${target}`);
    if (SQL.test(fs.readFileSync(path.join(root, file), 'utf8'))) findings.push(`${file}: SQL`);
  }
  return findings;
}

const planted: string[] = [];
afterAll(() => {
  for (const root of planted) fs.rmSync(root, { recursive: true, force: true });
});
function plant(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'oo-agent-tools-'));
  planted.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('rule "agent tool adapters import no database layer and hold no SQL"', () => {
  it('fails a planted adapter file that imports the db layer and runs SQL, and passes one that maps only', () => {
    const bad = plant({
      'application/operations/agent-order-tools.ts': "import { db } from '../../db/db.js';\nexport const run = () => db.query('SELECT status FROM orders WHERE id = $1');\n",
      'db/db.ts': 'export const db = { query: (_s: string) => null };\n',
    });
    expect(adapterFileFindings(bad)).toEqual(['application/operations/agent-order-tools.ts -> db/db.ts', 'application/operations/agent-order-tools.ts: SQL']);
    const good = plant({
      'application/operations/agent-order-tools.ts': "import { readOrderStatus } from '../../orders/order-status.js';\nexport const f = readOrderStatus; // selects nothing from anywhere\n",
      'orders/order-status.ts': 'export const readOrderStatus = () => null;\n',
    });
    expect(adapterFileFindings(good)).toEqual([]);
  });

  it('holds on src/', () => {
    const root = path.resolve('src');
    expect(fs.readdirSync(path.join(root, 'application/operations')).filter((f) => isAdapterFile(`application/operations/${f}`)).length).toBe(3);
    expect(adapterFileFindings(root)).toEqual([]);
  });
});
