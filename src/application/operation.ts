// One operation a caller can perform, transport-free: name, docs, role, zod input and output, run(caller, input).
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';
import type { Role } from '../auth/roles.js';

/** Whether an operation changes state (agents confirm writes; reads may be retried freely). */
export type OperationEffect = 'read' | 'write';

/**
 * What a transport knows of the call beyond the caller: where it came from (audit records the address).
 * It is also the request's scope: a transport passes one object for all the calls of one HTTP request
 * (an MCP batch) or one A2A message (a chat turn's tool calls), and budgets per request are kept
 * against that object (assess_order's 8 image fetches, contract 11).
 */
export interface CallContext {
  /** The client address as the edge resolved it (TRUST_PROXY applied); null when there is none. */
  ip: string | null;
  /**
   * The key space an operation claims idempotency keys in, when the face the call came through keeps
   * its keys apart from REST's: set only by an agent tool's adapter (place_order: `agents.place_order`),
   * never by a transport or a caller; absent, the operation uses its own.
   */
  idempotencyScope?: string;
}

/** The input of every operation is an object: its fields are what REST spreads over path, query, body and headers. */
export type OperationInput = z.ZodObject;

/**
 * `N` is the literal name and `R` what `run` answers (within the output schema's type, often narrower: the
 * registry's typed `call` answers `R`, the value run produced, which the output schema documents).
 */
export interface Operation<I extends OperationInput = OperationInput, O extends z.ZodType = z.ZodType, N extends string = string, R extends z.input<O> = z.input<O>> {
  /** Stable name: camelCase for the API (the OpenAPI operationId), snake_case for agents' tools (contract 11). The literal name keys the registry's typed `call`. */
  name: N;
  /** One line, imperative ("Start an order on a published flow"). */
  summary: string;
  /** What it does and refuses, for client developers and agents. */
  description: string;
  /** The feature it belongs to (OpenAPI tag). */
  feature: string;
  /** The lowest role that may call it; checked by the registry before the input is read. */
  role: Role;
  effect: OperationEffect;
  /**
   * Who reaches it: `api` operations (the default) are bound to REST and serve the dashboard;
   * `agents` operations are the tools of contract section 11 (snake_case names), served as MCP
   * tools, A2A skills and to the assistant, with the inputs and outputs agents are promised.
   */
  audience?: 'api' | 'agents';
  /**
   * Set on an agent tool made by `agentTool` (src/application/agent-tool.ts): the operation it adapts
   * (mapping input and output only). The registry contract test holds every agent tool to being a
   * REST-bound operation or an adapter of one.
   */
  adapterOf?: Operation<OperationInput, z.ZodType>;
  /** Callers restricted by a temporary password or missing two-factor may still call it (Account-page actions). */
  allowRestricted?: boolean;
  input: I;
  output: O;
  /** A valid input, shown in the OpenAPI document and to agents. */
  example?: z.input<I>;
  /** One plain sentence about an output (agents show it beside the data: an MCP text content, an A2A status). */
  summarize?(this: void, output: z.output<O>): string;
  /** Runs as `caller`, who has passed the role check; `input` has passed the input schema. */
  run(caller: Principal, input: z.output<I>, call: CallContext): Promise<R>;
}

/** Keeps the generic types of a definition (input and output inferred from their schemas, the name as its literal). */
export function defineOperation<I extends OperationInput, O extends z.ZodType, N extends string, R extends z.input<O>>(op: Operation<I, O, N, R>): Operation<I, O, N, R> {
  return op;
}

/** An operation of any input and output, as the registry holds them. */
export type AnyOperation = Operation<OperationInput, z.ZodType, string, unknown>;
