// Flows over REST: list rows, read with graphs, save drafts with problems, publish, compiled machine (contract section 4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/test-service.js';
import { e, graphs, n, startOrdersService, tokenFor } from './orders-support.js';

let t: TestService;
beforeAll(async () => {
  t = await startOrdersService();
});
afterAll(async () => {
  await t?.close();
});

const FLOW_ROW_FIELDS = ['id', 'name', 'description', 'model', 'channels', 'publishedVersion', 'updatedAt', 'nodeCount'].sort();

describe('flows routes', () => {
  it('PUT saves a draft (creating the flow) and returns { flow, problems }; GET /flows lists exactly the flow-row fields', async () => {
    const res = await t.call('PUT', '/api/v1/flows/pay-later', { name: 'Pay later', description: 'Waits for payment', model: 'b2c', channels: ['web', 'api'], graph: graphs.eventWait });
    expect(res.status).toBe(200);
    expect(res.body.problems).toEqual([]);
    expect(res.body.flow).toMatchObject({ id: 'pay-later', name: 'Pay later', publishedVersion: null, nodeCount: 4, channels: ['web', 'api'] });
    const list = await t.call('GET', '/api/v1/flows', undefined, { token: await tokenFor(t, 'viewer') });
    expect(list.status).toBe(200);
    const row = list.body.flows.find((f: { id: string }) => f.id === 'pay-later');
    expect(Object.keys(row).sort()).toEqual(FLOW_ROW_FIELDS);
    expect(row).toMatchObject({ description: 'Waits for payment', model: 'b2c', publishedVersion: null });
  });

  it('a draft may have problems (each { nodeId?, message }); publishing it is 400 with issues', async () => {
    const broken = { nodes: [n('start', 'trigger.api'), n('x', 'no.such.type')], edges: [e('start', 'x')] };
    const res = await t.call('PUT', '/api/v1/flows/broken', { name: 'Broken', graph: broken });
    expect(res.status).toBe(200);
    expect(res.body.problems.length).toBeGreaterThan(0);
    expect(res.body.problems.some((p: { nodeId?: string }) => p.nodeId === 'x')).toBe(true);
    const pub = await t.call('POST', '/api/v1/flows/broken/publish');
    expect(pub.status).toBe(400);
    expect(pub.body.issues.length).toBeGreaterThan(0);
    expect((await t.call('GET', '/api/v1/flows/broken')).body.flow.publishedVersion).toBeNull();
  });

  it('publish returns { version } and counts up; GET /flows/:id has { flow, draft, versions } with graphs', async () => {
    expect((await t.call('POST', '/api/v1/flows/pay-later/publish')).body).toEqual({ version: 1 });
    await t.call('PUT', '/api/v1/flows/pay-later', { name: 'Pay later', graph: graphs.approval });
    expect((await t.call('POST', '/api/v1/flows/pay-later/publish')).body).toEqual({ version: 2 });
    const res = await t.call('GET', '/api/v1/flows/pay-later');
    expect(res.status).toBe(200);
    expect(res.body.flow.publishedVersion).toBe(2);
    expect(res.body.draft.graph).toEqual(graphs.approval);
    expect(res.body.draft.problems).toEqual([]);
    expect(res.body.versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    expect(res.body.versions[0]).toMatchObject({ graph: graphs.eventWait, createdBy: 'api' });
  });

  it('GET …/versions/:v/machine is the compiled XState config; unknown version or flow is 404', async () => {
    const res = await t.call('GET', '/api/v1/flows/pay-later/versions/1/machine');
    expect(res.status).toBe(200);
    expect(res.body.states).toHaveProperty('pay');
    expect(res.body.initial).toBeTypeOf('string');
    expect((await t.call('GET', '/api/v1/flows/pay-later/versions/9/machine')).status).toBe(404);
    expect((await t.call('GET', '/api/v1/flows/pay-later/versions/zero/machine')).status).toBe(400);
    expect((await t.call('GET', '/api/v1/flows/nope/versions/1/machine')).status).toBe(404);
  });

  it('unknown flow: GET 404, publish 404; invalid id or body 400; editing needs the operator role', async () => {
    expect((await t.call('GET', '/api/v1/flows/nope')).status).toBe(404);
    expect((await t.call('POST', '/api/v1/flows/nope/publish')).status).toBe(404);
    expect((await t.call('PUT', '/api/v1/flows/Bad%20Id', { name: 'x', graph: graphs.eventWait })).status).toBe(400);
    expect((await t.call('PUT', '/api/v1/flows/ok-id', { graph: graphs.eventWait })).status).toBe(400);
    expect((await t.call('PUT', '/api/v1/flows/ok-id', { name: 'x', graph: 'not a graph' })).status).toBe(400);
    expect((await t.call('PUT', '/api/v1/flows/ok-id', { name: 'x', channels: ['fax'], graph: graphs.eventWait })).status).toBe(400);
    const approver = await tokenFor(t, 'approver');
    expect((await t.call('PUT', '/api/v1/flows/ok-id', { name: 'x', graph: graphs.eventWait }, { token: approver })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/flows/pay-later/publish', undefined, { token: approver })).status).toBe(403);
  });
});
