// JSON request texts past our structural limits are refused before parsing (issue "Resilience", hostile input):
// nesting deeper than 64 levels, NUL characters and unpaired surrogates; anything else passes to JSON.parse.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonTextProblem, MAX_JSON_DEPTH, UNSTORABLE_TEXT } from '../../../src/transport/json-text-limits.js';
import { toErrorResponse } from '../../../src/transport/http-errors.js';

const RUNS = { seed: 20_261_122, numRuns: 300 };
const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);
/** JSON values without NUL or unpaired surrogates (what PostgreSQL can store). */
const storable = fc.jsonValue({ maxDepth: 6 }).filter((v) => !/\\u0000|\\ud[89a-f]/i.test(JSON.stringify(v)));

describe('JSON text limits', () => {
  it('any storable JSON value within the depth limit passes, escaped or not', () => {
    fc.assert(
      fc.property(storable, (v) => {
        expect(jsonTextProblem(JSON.stringify(v))).toBeNull();
        expect(jsonTextProblem(JSON.stringify(v, null, 2))).toBeNull();
      }),
      RUNS,
    );
  });

  it(`nesting: ${MAX_JSON_DEPTH} levels pass, one more is refused (brackets inside strings do not count)`, () => {
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(jsonTextProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/nested deeper/);
    expect(jsonTextProblem(nested(500_000))).toMatch(/nested deeper/);
    expect(jsonTextProblem(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[' }))).toBeNull();
  });

  it('NUL characters and unpaired surrogates are refused; pairs (escaped or raw) pass', () => {
    for (const bad of ['{"a":"\\u0000"}', '{"\\u0000":1}', '["\\ud800"]', '["\\udc00"]', '["\\ud800x"]', '["\\ud800\\n"]', '["\\ud800\\ud800"]', '["\ud800"]', '["\udfff"]'])
      expect(jsonTextProblem(bad), bad).not.toBeNull();
    for (const good of ['["\\ud83d\\ude00"]', '["\u{1F600}"]', '["\\\\u0000"]', '["\\u00e9"]', '{"a":"b\\\\"}'])
      expect(jsonTextProblem(good), good).toBeNull();
  });

  it('a surrogate or NUL in a path or query value is recognised as unstorable', () => {
    expect(UNSTORABLE_TEXT.test('a\u0000b')).toBe(true);
    expect(UNSTORABLE_TEXT.test('x\ud800')).toBe(true);
    expect(UNSTORABLE_TEXT.test('ok \u{1F600}')).toBe(false);
  });

  it('text PostgreSQL cannot store (22021, 22P05) is a 400 { error }, not a 500', () => {
    for (const code of ['22021', '22P05']) {
      const err = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code });
      expect(toErrorResponse(err)).toMatchObject({ status: 400, internal: false, body: { error: expect.any(String) } });
    }
  });
});
