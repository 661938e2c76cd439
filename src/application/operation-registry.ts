// The operation registry: every operation once, with the role check and input validation every transport goes through.
import type { Principal } from '../auth/principal.js';
import { authorize } from '../auth/authorize.js';
import { DomainError, ValidationError } from '../domain/errors.js';
import { zodIssues } from '../lib/zod-issues.js';
import type { z } from 'zod';
import type { AnyOperation, CallContext, OperationInput as InputSchema } from './operation.js';
import type { OperationInput, OperationName, OperationOutput } from './operation-types.js';

/** An input once an operation's input schema has read it: an object of its fields. */
export type ParsedInput = z.output<InputSchema>;

export interface RegistryOptions {
  /**
   * Check every output against the operation's output schema and fail the call when it does not
   * match (a bug: the documented contract is wrong). Costs a parse per call, so it is for tests
   * and development (`CHECK_OPERATION_OUTPUTS=1`); the output returned is always the one produced.
   */
  checkOutputs?: boolean;
}

export class OperationRegistry {
  private readonly operations = new Map<string, AnyOperation>();

  constructor(private readonly options: RegistryOptions = {}) {}

  /** Adds operations; a name used twice is a wiring bug and fails the start. */
  add(...operations: AnyOperation[]): this {
    for (const op of operations) {
      if (this.operations.has(op.name)) throw new Error(`operation ${op.name} is defined twice`);
      this.operations.set(op.name, op);
    }
    return this;
  }

  get(name: string): AnyOperation | undefined {
    return this.operations.get(name);
  }

  /** Every operation, in the order added. */
  list(): AnyOperation[] {
    return [...this.operations.values()];
  }

  /**
   * Runs the operation `name` as `caller` (the dashboard, the pages, the assistant): role check, then the
   * input schema, then the run. The input and the answer are typed by the operation's schemas; the
   * registry still checks both at run time, as for any caller.
   */
  async call<N extends OperationName>(name: N, caller: Principal | null, input: OperationInput<N>, call: CallContext): Promise<OperationOutput<N>> {
    // The operation added under `name` is the one whose types `OperationMap` holds (each operations file declares its own).
    return (await this.callByName(name, caller, input, call)) as OperationOutput<N>;
  }

  /**
   * `call` with the input as received (a form's or a query's strings): the operation's schema is its
   * only check, with the same 400 a transport answers; the answer is still typed by the operation.
   */
  async callRaw<N extends OperationName>(name: N, caller: Principal | null, input: unknown, call: CallContext): Promise<OperationOutput<N>> {
    return (await this.callByName(name, caller, input, call)) as OperationOutput<N>;
  }

  /** `call` for a name that comes off the wire (an MCP tool, an A2A skill, a model's tool call): untyped, checked the same way. */
  async callByName(name: string, caller: Principal | null, input: unknown, call: CallContext): Promise<unknown> {
    return this.callWith(name, caller, (op) => parseInput(op, input), call);
  }

  /**
   * Runs `name` as `caller`, reading the input only once the role check has passed (a refused
   * caller learns nothing of the input rules, and a body is not read for them). `read` must
   * validate with the operation's input schema or schemas derived from it (REST reads by part).
   */
  async callWith(
    name: string,
    caller: Principal | null,
    read: (op: AnyOperation) => ParsedInput | Promise<ParsedInput>,
    call: CallContext,
  ): Promise<unknown> {
    const op = this.operations.get(name);
    if (!op) throw new DomainError('unknown_operation', `No operation named ${name}`, 'not_found');
    const principal = authorize(caller, op.role, op.allowRestricted);
    const input = await read(op);
    const output = await op.run(principal, input, call);
    if (this.options.checkOutputs) checkOutput(op, output);
    return output;
  }
}

/** The input parsed by the operation's schema; a failure is a 400 naming every invalid field. */
export function parseInput(op: AnyOperation, input: unknown): ParsedInput {
  const result = op.input.safeParse(input ?? {});
  if (!result.success) throw new ValidationError(zodIssues(result.error), 'Invalid input');
  return result.data;
}

/** A bug when an output strays from its documented schema: thrown as an internal error. */
function checkOutput(op: AnyOperation, output: unknown): void {
  const result = op.output.safeParse(output);
  if (!result.success)
    throw new Error(`operation ${op.name} answered outside its output schema: ${JSON.stringify(zodIssues(result.error)).slice(0, 2000)}`);
}
