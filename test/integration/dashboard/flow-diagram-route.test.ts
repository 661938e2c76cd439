// GET /api/v1/flows/:id/versions/:v/diagram.svg: the drawing for viewers, the same for a version, refusals as JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/test-service.js';

describe('flow diagram route', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(async () => t?.close());

  it('serves the drawing of a published version as image/svg+xml, the same text each time (cache per version)', async () => {
    const a = await t.call('GET', '/api/v1/flows/tpl-marketplace-order/versions/1/diagram.svg');
    expect(a.status).toBe(200);
    expect(a.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(a.text).toContain('data-node-id="trust_review" data-node-kind="approval"');
    const b = await t.call('GET', '/api/v1/flows/tpl-marketplace-order/versions/1/diagram.svg');
    expect(b.text).toBe(a.text);
  });

  it('unknown versions are 404 and a bad version number 400, never a 500; no caller is 401', async () => {
    expect((await t.call('GET', '/api/v1/flows/tpl-marketplace-order/versions/99/diagram.svg')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/nope/versions/1/diagram.svg')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/tpl-marketplace-order/versions/x/diagram.svg')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flows/tpl-marketplace-order/versions/1/diagram.svg', undefined, { token: null })).status).toBe(401);
  });

  it('OpenAPI documents it as an SVG answer of the getFlowDiagram operation', async () => {
    const doc = (await t.call('GET', '/api/v1/openapi.json')).body;
    const op = doc.paths['/api/v1/flows/{id}/versions/{v}/diagram.svg'].get;
    expect(op.operationId).toBe('getFlowDiagram');
    expect(Object.keys(op.responses['200'].content)).toEqual(['image/svg+xml']);
  });
});
