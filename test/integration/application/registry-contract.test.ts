// Registry contract: every operation the service registers is complete (name, docs, role, effect, schemas) and
// reachable over REST through exactly one binding; every binding names a registered operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestService, type TestService } from '../../support/test-service.js';
import { REST_BINDINGS } from '../../../src/http/rest/rest-bindings.js';
import { roles } from '../../../src/auth/roles.js';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => {
  await t?.close();
});

describe('operation registry contract', () => {
  it('every operation has a camelCase name, summary, description, feature, role, effect and zod input and output', () => {
    const ops = t.service.ctx.operations.list();
    expect(ops.length).toBeGreaterThanOrEqual(35);
    for (const op of ops) {
      expect(op.name, op.name).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary.length, `${op.name} summary`).toBeGreaterThan(5);
      expect(op.description.length, `${op.name} description`).toBeGreaterThan(20);
      expect(op.feature, `${op.name} feature`).toMatch(/^[a-z-]+$/);
      expect(roles, `${op.name} role`).toContain(op.role);
      expect(['read', 'write'], `${op.name} effect`).toContain(op.effect);
      expect(op.input, `${op.name} input`).toBeInstanceOf(z.ZodObject);
      expect(op.output, `${op.name} output`).toBeInstanceOf(z.ZodType);
      if (op.example !== undefined) expect(op.input.safeParse(op.example).success, `${op.name} example`).toBe(true);
      // A write an operation takes input for documents what it takes: an example for client developers and agents.
      if (op.effect === 'write' && Object.keys(op.input.shape).length > 0) expect(op.example, `${op.name} example`).toBeDefined();
    }
  });

  it('each operation has exactly one REST binding, and each binding names a registered operation (optional ones aside)', () => {
    const names = t.service.ctx.operations.list().map((op) => op.name);
    for (const name of names) expect(REST_BINDINGS.filter((b) => b.operation === name).length, name).toBe(1);
    for (const binding of REST_BINDINGS) if (!binding.optional) expect(names, binding.operation).toContain(binding.operation);
  });

  it('the registry is what the REST edge calls: a viewer calling a write operation is refused by the registry itself', async () => {
    const viewer = { kind: 'person' as const, id: 'per_x', role: 'viewer' as const, actor: 'v@example.com', via: 'bearer' as const };
    const err = await t.service.ctx.operations.call('cancelOrder', viewer, { id: 'ord_x' }, { ip: null }).catch((e: unknown) => e);
    expect((err as { kind?: string }).kind).toBe('forbidden');
  });
});
