// Drawing cost (contract 13; security-review-2 H-1): layouts run off the serving thread within a 2 s budget (a list past it),
// are cached by content, and one caller starts at most 4 new ones per 10 s; validation without a drawing is never limited.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { randomDag } from '../../support/random-dag.js';
import { dataAttrs, getPage, makePerson, makeToken, type TestPerson } from '../identity/identity-client.js';
import type { FlowDiagrams } from '../../../src/engine/flows/flow-diagrams.js';

let t: TestService;
let diagrams: FlowDiagrams;
let viewer: TestPerson;

/** A small valid graph whose content differs by `n` (a label), so each is a new drawing. */
const small = (n: number) => ({
  nodes: [
    { id: 'start', type: 'trigger.api' },
    { id: 'hold', type: 'wait.delay', label: `Cool off ${n}`, params: { duration: '1h' } },
    { id: 'done', type: 'end', params: { outcome: 'completed' } },
  ],
  edges: [
    { from: 'start', to: 'hold' },
    { from: 'hold', to: 'done' },
  ],
});

beforeAll(async () => {
  t = await startTestService();
  diagrams = t.service.ctx.flowDiagrams!;
  viewer = await makePerson(t, 'viewer');
});
afterAll(async () => {
  await t?.close();
});

describe('drawing cost (contract 13)', () => {
  it('a viewer validating a 500-node/2000-edge random DAG never blocks the event loop: /health answers meanwhile and past the 2 s budget the drawing is a list', async () => {
    const { secret } = await makeToken(t, 'viewer', 'never', 'big-graph-viewer');
    const graph = randomDag(500, 2000);
    const overBefore = diagrams.layoutsStarted;
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let done = false;
    const validating = t.call('POST', '/api/v1/flows/big-random/validate', { graph }, { token: secret }).finally(() => (done = true));
    let healthy = 0;
    for (let i = 0; i < 300 && !done; i++) {
      if ((await t.call('GET', '/health', undefined, { token: null })).status === 200) healthy++;
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await validating;
    delay.disable();
    // Before: the layout ran on the event loop for 37-49 s (every request waited). Now only validation runs there.
    expect(delay.max / 1e6).toBeLessThan(1000);
    expect(healthy).toBeGreaterThanOrEqual(5);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.body.problems.length).toBeGreaterThan(0);
    expect(res.body.svg).toContain('data-drawing="list"');
    expect(dataAttrs(res.body.svg, 'node-id')).toHaveLength(500);
    expect(res.body.svg.match(/data-edge-from=/g)).toHaveLength(2000);
    expect(diagrams.layoutsStarted).toBe(overBefore + 1);

    // The same graph stored as a draft: the page draws it from the cache (by content), on every view, without a layout.
    const saved = await t.call('PUT', '/api/v1/flows/big-random', { name: 'Big random', graph });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    for (let view = 0; view < 2; view++) {
      const page = await getPage(t, '/flows/big-random', viewer.cookie);
      expect(page.status).toBe(200);
      expect(page.text).toContain('data-drawing="list"');
    }
    expect(diagrams.layoutsStarted).toBe(overBefore + 1);
  });

  it('a second view of a stored draft is served from the cache: no new layout, the same drawing', async () => {
    expect((await t.call('PUT', '/api/v1/flows/cached-draft', { name: 'Cached draft', graph: small(100) })).status).toBe(200);
    const before = diagrams.layoutsStarted;
    const hits = diagrams.cacheHits;
    const first = await getPage(t, '/flows/cached-draft', viewer.cookie);
    expect(first.status).toBe(200);
    expect(diagrams.layoutsStarted).toBe(before + 1);
    const second = await getPage(t, '/flows/cached-draft', viewer.cookie);
    expect(second.status).toBe(200);
    expect(diagrams.layoutsStarted).toBe(before + 1);
    expect(diagrams.cacheHits).toBeGreaterThan(hits);
    const svg = (html: string) => html.slice(html.indexOf('<svg'), html.lastIndexOf('</svg>'));
    expect(svg(second.text)).toBe(svg(first.text));
    expect(second.text).not.toContain('data-drawing="list"');
  });

  it('one caller starts at most 4 new layouts per 10 s: the 5th is 429 with Retry-After and { error }; validation without a drawing, cached drawings and other callers still answer 200', async () => {
    const { secret } = await makeToken(t, 'viewer', 'never', 'limited-viewer');
    const other = await makeToken(t, 'viewer', 'never', 'other-viewer');
    const validate = (graph: unknown, token: string, drawing?: boolean) =>
      t.call('POST', '/api/v1/flows/limited/validate', { graph, ...(drawing === undefined ? {} : { drawing }) }, { token });
    for (let n = 0; n < 4; n++) expect((await validate(small(n), secret)).status).toBe(200);

    const refused = await validate(small(4), secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    expect(Object.keys(refused.body)).toEqual(['error']);
    expect(refused.body.error).toMatch(/Too many new drawings/);
    // The versions' drawing route counts the same starts (this version was not drawn before in this service).
    const published = await t.call('GET', '/api/v1/flows/tpl-b2b-order/versions/1/diagram.svg', undefined, { token: secret });
    expect(published.status).toBe(429);
    expect(published.headers.get('retry-after')).toMatch(/^\d+$/);

    // Plain validation is free: the same graph without a drawing, many times.
    for (let n = 0; n < 6; n++) {
      const plain = await validate(small(4), secret, false);
      expect(plain.status).toBe(200);
      expect(plain.body).toEqual({ problems: [], svg: null });
    }
    // A drawing already made is no new layout; another caller has its own starts.
    expect((await validate(small(0), secret)).status).toBe(200);
    expect((await validate(small(4), other.secret)).status).toBe(200);

    // The window is on the service clock: 10 s later the caller draws again.
    await t.advance(10_000);
    const again = await validate(small(5), secret);
    expect(again.status).toBe(200);
    expect(again.body.svg).toContain('data-node-id="hold"');
  });
});
