// MCP's error mapping: a refusal (role, input, domain rule) is a tool result with isError and the message as text.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { DomainError, ValidationError } from '../domain/errors.js';

/**
 * Contract section 11: a refused role or a domain error is a result with `isError: true` and the
 * message as text; invalid input lists the invalid fields. Anything else is a bug: rethrown, so
 * the SDK answers a JSON-RPC internal error and the edge logs it.
 */
export function mcpErrorResult(err: unknown): CallToolResult {
  if (err instanceof ValidationError) {
    const fields = err.issues.map((i) => `${i.path || '(input)'}: ${i.message}`).join('; ');
    return { isError: true, content: [{ type: 'text', text: `${err.message}: ${fields}` }] };
  }
  if (err instanceof DomainError) return { isError: true, content: [{ type: 'text', text: err.message }] };
  throw err;
}
