// The MCP server one caller sees: every agents' tool its role may use (chat aside), each calling the registry as that caller.
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { OperationRegistry } from '../application/operation-registry.js';
import type { AnyOperation, CallContext } from '../application/operation.js';
import type { Principal } from '../auth/principal.js';
import { roleAtLeast } from '../auth/roles.js';
import { mcpErrorResult } from './mcp-error-result.js';

/** Served over A2A and the assistant page only: MCP clients bring their own model (contract section 11). */
const NOT_OVER_MCP = new Set(['chat']);

/** Text beside the structured output when a tool has no summary of its own: the output, cut to a readable length. */
const TEXT_LIMIT = 4_000;

export interface McpServerOptions {
  registry: OperationRegistry;
  name: string;
  version: string;
}

/** The tools served over MCP: the agents' tools but chat. */
function servedTools(registry: OperationRegistry): AnyOperation[] {
  return registry.list().filter((op) => op.audience === 'agents' && !NOT_OVER_MCP.has(op.name));
}

/** The tools listed to `principal`: served over MCP and within its role. */
export function mcpTools(registry: OperationRegistry, principal: Principal): AnyOperation[] {
  return servedTools(registry).filter((op) => roleAtLeast(principal.role, op.role));
}

/** JSON Schema of a zod schema as the SDK lists it (zod's Standard JSON Schema, draft 2020-12). */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  return schema['~standard'].jsonSchema[io]({ target: 'draft-2020-12' });
}

/** The SDK's own check of arguments: any object (the operation's schema is the one listed and applied). */
const ANY_ARGUMENTS = z.record(z.string(), z.unknown());

const annotationsOf = (op: AnyOperation) => ({ readOnlyHint: op.effect === 'read', destructiveHint: op.name === 'cancel_order', openWorldHint: false });

/**
 * A fresh server per request (stateless Streamable HTTP). Every served tool is registered, so a
 * call above the caller's role reaches the registry and comes back as its refusal (an isError
 * result naming the role, contract section 11); `tools/list` shows only the caller's tools. Every
 * tool call of the request (a JSON-RPC batch) gets the same `call`, the request's scope.
 */
export function mcpServerFor(options: McpServerOptions, principal: Principal, call: CallContext): McpServer {
  const server = new McpServer({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
  for (const op of servedTools(options.registry)) {
    server.registerTool(
      op.name,
      // Any object reaches the registry, which checks the role before the input and names every invalid field.
      { title: op.summary, description: op.description, inputSchema: ANY_ARGUMENTS, outputSchema: op.output, annotations: annotationsOf(op) },
      async (args: unknown): Promise<CallToolResult> => {
        try {
          const output = await options.registry.callByName(op.name, principal, args ?? {}, call);
          const text = op.summarize ? op.summarize(output) : JSON.stringify(output).slice(0, TEXT_LIMIT);
          return { content: [{ type: 'text', text }], structuredContent: output as Record<string, unknown> };
        } catch (err) {
          return mcpErrorResult(err);
        }
      },
    );
  }
  const listed = mcpTools(options.registry, principal).map((op) => ({
    name: op.name,
    title: op.summary,
    description: op.description,
    inputSchema: jsonSchemaOf(op.input, 'input'),
    outputSchema: jsonSchemaOf(op.output, 'output'),
    annotations: annotationsOf(op),
  }));
  server.server.setRequestHandler('tools/list', () => ({ tools: listed }) as never);
  return server;
}
