// The operation registry: the role check before the input, the input schema, output checks, one name per operation.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OperationRegistry } from '../../../src/application/operation-registry.js';
import { defineOperation } from '../../../src/application/operation.js';
import type { Principal } from '../../../src/auth/principal.js';
import { DomainError, ValidationError } from '../../../src/domain/errors.js';

const person = (role: Principal['role'], restricted?: Principal['restricted']): Principal => ({
  kind: 'person',
  id: 'per_1',
  role,
  actor: 'ada@example.com',
  via: 'bearer',
  ...(restricted ? { restricted } : {}),
});
const call = { ip: '127.0.0.1' };

const ran: unknown[] = [];
const echo = defineOperation({
  name: 'echoName',
  summary: 'Echo',
  description: 'Answers the name it was given',
  feature: 'test',
  role: 'approver',
  effect: 'write',
  input: z.strictObject({ name: z.string().min(1) }),
  output: z.object({ name: z.string() }),
  run: async (caller, input) => {
    ran.push({ caller: caller.actor, input });
    return { name: input.name };
  },
});
const liar = defineOperation({
  name: 'liar',
  summary: 'Answers outside its schema',
  description: 'A bug on purpose',
  feature: 'test',
  role: 'viewer',
  effect: 'read',
  input: z.object({}),
  output: z.object({ count: z.number() }),
  run: async () => ({ count: 'three' }) as never,
});

async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(DomainError);
  return err as DomainError;
}

describe('OperationRegistry', () => {
  it('refuses a caller without credentials (unauthenticated) and below the role (forbidden) before reading the input', async () => {
    const registry = new OperationRegistry().add(echo);
    expect((await refusal(registry.callByName('echoName', null, { name: 'x' }, call))).kind).toBe('unauthenticated');
    // Invalid input from a viewer is still "forbidden": a refused caller learns nothing of the input rules.
    const below = await refusal(registry.callByName('echoName', person('viewer'), { nope: 1 }, call));
    expect(below.kind).toBe('forbidden');
    expect(below.message).toBe('This needs the approver role');
    expect(ran).toEqual([]);
  });

  it('refuses a restricted caller (temporary password) unless the operation allows it', async () => {
    const registry = new OperationRegistry().add(echo, defineOperation({ ...echo, name: 'accountAction', allowRestricted: true }));
    expect((await refusal(registry.callByName('echoName', person('operator', 'temporary_password'), { name: 'x' }, call))).kind).toBe('forbidden');
    expect(await registry.callByName('accountAction', person('operator', 'temporary_password'), { name: 'x' }, call)).toEqual({ name: 'x' });
  });

  it('validates the input with the operation schema: every invalid field as an issue, nothing run', async () => {
    ran.length = 0;
    const registry = new OperationRegistry().add(echo);
    const err = await refusal(registry.callByName('echoName', person('operator'), { name: '', extra: true }, call));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.path).sort()).toEqual(['', 'name']);
    expect(ran).toEqual([]);
  });

  it('runs as the caller with the parsed input and answers the output', async () => {
    ran.length = 0;
    const registry = new OperationRegistry().add(echo);
    expect(await registry.callByName('echoName', person('approver'), { name: 'Ada' }, call)).toEqual({ name: 'Ada' });
    expect(ran).toEqual([{ caller: 'ada@example.com', input: { name: 'Ada' } }]);
  });

  it('with checkOutputs an answer outside the output schema fails the call; without, it passes through', async () => {
    await expect(new OperationRegistry({ checkOutputs: true }).add(liar).callByName('liar', person('viewer'), {}, call)).rejects.toThrow(/liar answered outside its output schema/);
    expect(await new OperationRegistry().add(liar).callByName('liar', person('viewer'), {}, call)).toEqual({ count: 'three' });
  });

  it('an unknown operation is not_found; a name defined twice fails at wiring time', async () => {
    const registry = new OperationRegistry().add(echo);
    expect((await refusal(registry.callByName('nothing', person('operator'), {}, call))).kind).toBe('not_found');
    expect(() => registry.add(echo)).toThrow(/echoName is defined twice/);
  });
});
