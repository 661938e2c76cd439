// An agent tool of contract section 11 as a thin adapter of the registry operation REST uses: its own name and shapes, the base's run.
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import { roleAtLeast, type Role } from '../auth/roles.js';
import type { CallContext, Operation, OperationEffect, OperationInput } from './operation.js';

/**
 * What an adapter declares: the tool's name, docs and schemas (contract 11 fixes them), and how its
 * input becomes the base's and the base's output becomes its own. Mappings rename and reshape; one
 * may read through an orders query to fill a default (decide_approval's sole approval) or to
 * complete an answer (place_order's status), but runs no SQL of its own and writes nothing: the
 * base operation does the work, with its rules, its idempotency record and its errors.
 */
export interface AgentToolSpec<I extends OperationInput, O extends z.ZodType, BI extends OperationInput, BO extends z.ZodType, N extends string = string> {
  /** The tool's name (contract 11), kept as its literal so the registry's typed `call` knows the tool. */
  name: N;
  summary: string;
  description: string;
  /** Default the base's feature. */
  feature?: string;
  /** Default the base's role; a stricter one may be given, never a lower one. */
  role?: Role;
  /** Default the base's effect. */
  effect?: OperationEffect;
  input: I;
  output: O;
  example?: z.input<I>;
  summarize?(this: void, output: z.output<O>): string;
  /** The base's input from the tool's (already validated by the tool's schema). */
  mapIn(input: z.output<I>, caller: Principal): z.output<BI> | Promise<z.output<BI>>;
  /** The tool's output from the base's output and the input the base was given. */
  mapOut(output: z.input<BO>, baseInput: z.output<BI>): z.input<O> | Promise<z.input<O>>;
  /** The key space the base claims idempotency keys in for this tool (place_order keeps agents' keys apart from REST's). */
  idempotencyScope?: string;
}

/** Tools made here: the contract test tells an adapter from a hand-written operation that merely names a base. */
const adapters = new WeakSet<object>();

/**
 * The tool as a registry operation (`audience: 'agents'`, `adapterOf: base`) whose run is
 * `mapOut(await base.run(caller, mapIn(input), call))`. The registry checks the tool's role
 * (the base's or stricter) and parses the tool's input before the run, as for any operation.
 */
export function agentTool<I extends OperationInput, O extends z.ZodType, BI extends OperationInput, BO extends z.ZodType, N extends string>(
  base: Operation<BI, BO>,
  spec: AgentToolSpec<I, O, BI, BO, N>,
): Operation<I, O, N> {
  const role = spec.role ?? base.role;
  if (!roleAtLeast(role, base.role)) throw new Error(`agent tool ${spec.name} may not lower the role of ${base.name} (${base.role}) to ${role}`);
  const tool: Operation<I, O, N> = {
    name: spec.name,
    summary: spec.summary,
    description: spec.description,
    feature: spec.feature ?? base.feature,
    audience: 'agents',
    role,
    effect: spec.effect ?? base.effect,
    allowRestricted: base.allowRestricted,
    input: spec.input,
    output: spec.output,
    example: spec.example,
    summarize: spec.summarize,
    adapterOf: base,
    run: async (caller: Principal, input: z.output<I>, call: CallContext) => {
      const baseInput = await spec.mapIn(input, caller);
      // A copy of the context only when a key space is set: the base of such a tool keeps no per-request budget.
      const baseCall = spec.idempotencyScope ? { ...call, idempotencyScope: spec.idempotencyScope } : call;
      return spec.mapOut(await base.run(caller, baseInput, baseCall), baseInput);
    },
  };
  adapters.add(tool);
  return tool;
}

/** Whether `op` was made by `agentTool` (its run is the base's, mapped), not written by hand. */
export function isAgentToolAdapter(op: object): boolean {
  return adapters.has(op);
}
