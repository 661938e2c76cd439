// The draft editor (contract 13 /flows/<id>/edit, operator) and its check operation (POST /api/v1/flows/:id/validate):
// problems and the drawing without saving; save and publish by same-origin form posts; bad input never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';
import { dataAttrs, getPage, makePerson, postForm, type TestPerson } from '../identity/identity-client.js';

let t: TestService;
let operator: TestPerson;
let viewer: TestPerson;

const GRAPH = {
  nodes: [
    { id: 'start', type: 'trigger.api' },
    { id: 'hold', type: 'wait.delay', label: 'Cool off', params: { duration: '1h' } },
    { id: 'done', type: 'end', params: { outcome: 'completed' } },
  ],
  edges: [
    { from: 'start', to: 'hold' },
    { from: 'hold', to: 'done' },
  ],
};
const BROKEN = { ...GRAPH, edges: [{ from: 'start', to: 'hold' }] };

beforeAll(async () => {
  t = await startTestService();
  [operator, viewer] = [await makePerson(t, 'operator'), await makePerson(t, 'viewer')];
});
afterAll(async () => {
  await t?.close();
});

describe('checkFlowDraft (POST /api/v1/flows/:id/validate)', () => {
  it('answers the problems and the drawing with problem nodes marked, and saves nothing', async () => {
    const ok = await t.call('POST', '/api/v1/flows/editor-check/validate', { graph: GRAPH });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.problems).toEqual([]);
    expect(dataAttrs(ok.body.svg, 'node-id')).toEqual(expect.arrayContaining(['start', 'hold', 'done']));
    const broken = await t.call('POST', '/api/v1/flows/editor-check/validate', { graph: BROKEN });
    expect(broken.body.problems.some((p: any) => p.nodeId === 'hold')).toBe(true);
    expect(broken.body.svg).toContain('data-problem="true" data-node-id="hold"');
    expect((await t.call('GET', '/api/v1/flows/editor-check')).status).toBe(404);
  });

  it('refuses what is not a graph, a huge graph and a malformed id with 400', async () => {
    expect((await t.call('POST', '/api/v1/flows/editor-check/validate', { graph: { nodes: 'x' } })).status).toBe(400);
    const huge = { nodes: Array.from({ length: 501 }, (_, i) => ({ id: `n${i}`, type: 'end' })), edges: [] };
    expect((await t.call('POST', '/api/v1/flows/editor-check/validate', { graph: huge })).status).toBe(400);
    expect((await t.call('POST', '/api/v1/flows/Bad%20Id/validate', { graph: GRAPH })).status).toBe(400);
  });
});

describe('/flows/<id>/edit', () => {
  it('is for operators; a viewer gets 403 on the page and on the post', async () => {
    expect((await getPage(t, '/flows/tpl-b2b-order/edit', viewer.cookie)).status).toBe(403);
    expect((await postForm(t, '/flows/tpl-b2b-order/edit', { name: 'x', graph: '{}', intent: 'save' }, { cookie: viewer.cookie })).status).toBe(403);
  });

  it('shows a saved flow\'s draft as JSON with its drawing; a new id starts from a valid starter graph', async () => {
    const page = await getPage(t, '/flows/tpl-b2b-order/edit', operator.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-graph-input');
    expect(page.text).toMatch(/data-editor-diagram><svg/);
    const fresh = await getPage(t, '/flows/editor-new/edit', operator.cookie);
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain('saving creates it');
    expect(fresh.text).toContain('No problems: ready to publish.');
    expect((await getPage(t, '/flows/Bad%20Id/edit', operator.cookie)).status).toBe(400);
  });

  it('saves and publishes from the form; a draft with problems is saved but not published; text that is not JSON is kept and refused', async () => {
    const published = await postForm(t, '/flows/editor-flow/edit', { name: 'Editor flow', description: '', graph: JSON.stringify(GRAPH), intent: 'publish' }, { cookie: operator.cookie });
    expect(published.status, published.text).toBe(303);
    expect(published.location).toBe('/flows/editor-flow?version=1&published=1');
    expect((await t.call('GET', '/api/v1/flows/editor-flow')).body.flow).toMatchObject({ name: 'Editor flow', publishedVersion: 1 });

    const blocked = await postForm(t, '/flows/editor-flow/edit', { name: 'Editor flow', graph: JSON.stringify(BROKEN), intent: 'publish' }, { cookie: operator.cookie });
    expect(blocked.status).toBe(400);
    expect(blocked.text).toContain('Saved, not published');
    expect(blocked.text).toContain('data-problem-node="hold"');
    const detail = (await t.call('GET', '/api/v1/flows/editor-flow')).body;
    expect(detail.flow.publishedVersion).toBe(1);
    expect(detail.draft.graph.edges).toHaveLength(1);

    const notJson = await postForm(t, '/flows/editor-flow/edit', { name: 'Editor flow', graph: '{ "nodes": [', intent: 'save' }, { cookie: operator.cookie });
    expect(notJson.status).toBe(400);
    expect(notJson.text).toContain('the graph is not JSON');
    expect(notJson.text).toContain('{ &quot;nodes&quot;: [');
    const noName = await postForm(t, '/flows/editor-flow/edit', { name: '', graph: JSON.stringify(GRAPH), intent: 'save' }, { cookie: operator.cookie });
    expect(noName.status).toBe(400);
    expect(noName.text).toContain('Not saved');

    const saved = await postForm(t, '/flows/editor-flow/edit', { name: 'Editor flow', graph: JSON.stringify(GRAPH), intent: 'save' }, { cookie: operator.cookie });
    expect(saved.location).toBe('/flows/editor-flow/edit?saved=1');
    expect((await getPage(t, saved.location!, operator.cookie)).text).toContain('Draft saved.');
  });
});
