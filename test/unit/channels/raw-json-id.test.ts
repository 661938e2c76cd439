// Exact top-level number literals of a JSON text (64-bit platform order ids that JSON.parse would round).
import { describe, expect, it } from 'vitest';
import { topLevelNumberLiteral } from '../../../src/channels/storefront/raw-json-id.js';
import { PLATFORM_DIR } from './channel-fixtures.js';
import { readFileSync } from 'node:fs';

describe('topLevelNumberLiteral', () => {
  it('returns the digits as written, beyond 2^53', () => {
    const text = '{"id": 820982911946154508, "name": "#1"}';
    expect(JSON.parse(text).id).toBe(820982911946154500);
    expect(topLevelNumberLiteral(text, 'id')).toBe('820982911946154508');
  });

  it('ignores nested members, keys inside strings and escaped quotes', () => {
    const text = '{"note":"\\"id\\": 1, \\"x\\"","line_items":[{"id":7}],"customer":{"id":8},"id":9}';
    expect(topLevelNumberLiteral(text, 'id')).toBe('9');
    expect(topLevelNumberLiteral('{"line_items":[{"id":7}]}', 'id')).toBeUndefined();
  });

  it('undefined when the member is not a number, or the text is not an object', () => {
    expect(topLevelNumberLiteral('{"id":"820982911946154508"}', 'id')).toBeUndefined();
    expect(topLevelNumberLiteral('{"id":null}', 'id')).toBeUndefined();
    expect(topLevelNumberLiteral('[{"id":1}]', 'id')).toBeUndefined();
    expect(topLevelNumberLiteral('"id"', 'id')).toBeUndefined();
  });

  it('the last duplicate member wins, as in JSON.parse', () => {
    expect(topLevelNumberLiteral('{"id":1,"id":2}', 'id')).toBe('2');
  });

  it('reads the id of the shared payloads as written', () => {
    const text = readFileSync(`${PLATFORM_DIR}derived__shopify_docs_2023-07_orders_create.payload.json`, 'utf8');
    expect(topLevelNumberLiteral(text, 'id')).toBe('820982911946154500');
  });
});
