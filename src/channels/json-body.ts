// Parses a JSON request body the channel routes read raw (they verify signatures over the bytes first).
import { DomainError } from '../domain/errors.js';

/** The body as a JSON object; malformed JSON or another JSON value is a 400. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('invalid_json', 'Invalid JSON body', 'invalid_input');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new DomainError('invalid_json', 'The body must be a JSON object', 'invalid_input');
  return value as Record<string, unknown>;
}
