// The external-call crash tests' rig: a fresh database, a scripted receiver, the service as a child process on both, a
// one-call flow, polling, the order's stored history, and a teardown that leaves no child behind.
import { afterAll, expect } from 'vitest';
import { dbProbe, type DbProbe } from './db-probe.js';
import { ServiceProcess } from './service-process.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-db.js';
import { startBody } from '../../integration/orders/orders-support.js';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver.js';
import { until } from '../../support/until.js';


export interface CrashRig {
  database: TestDatabase;
  db: DbProbe;
  receiver: ScriptedReceiver;
  /** Started, on `database`, with loopback calls allowed and no Redis. */
  service: ServiceProcess;
}

/**
 * Registers the file's teardown and returns the function that builds the rig inside the test. The receiver is
 * scripted (`script`) before the service starts. Teardown SIGKILLs (not SIGTERM) the process group, so no child
 * outlives the file even when the test failed half-way.
 */
export function useCrashRig(): (script: (receiver: ScriptedReceiver) => void) => Promise<CrashRig> {
  let database: TestDatabase | null = null;
  let service: ServiceProcess | null = null;
  let receiver: ScriptedReceiver | null = null;
  afterAll(async () => {
    await service?.kill('group');
    await service?.close();
    await receiver?.close();
    await database?.drop();
  });
  return async (script) => {
    database = await createTestDatabase();
    const url = database.url;
    receiver = await startScriptedReceiver();
    script(receiver);
    service = new ServiceProcess({ env: { DATABASE_URL: url, REDIS_URL: undefined, OUTBOUND_ALLOW_LOOPBACK: '1' } });
    await service.start();
    return { database, db: dbProbe(() => url), receiver, service };
  };
}

/** Saves and publishes `flowId`: trigger, one http.call `call` with `callParams`, end (completed). */
export async function publishCallFlow(service: ServiceProcess, flowId: string, name: string, callParams: Record<string, unknown>): Promise<void> {
  const graph = {
    nodes: [
      { id: 'start', type: 'trigger.api' },
      { id: 'call', type: 'http.call', params: callParams },
      { id: 'done', type: 'end', params: { outcome: 'completed' } },
    ],
    edges: [
      { from: 'start', to: 'call' },
      { from: 'call', to: 'done' },
    ],
  };
  const saved = await service.call('PUT', `/api/v1/flows/${flowId}`, { name, graph });
  expect(saved.status, saved.text).toBe(200);
  expect(saved.body.problems).toEqual([]);
  const published = await service.call('POST', `/api/v1/flows/${flowId}/publish`);
  expect(published.status, published.text).toBe(200);
}

/** Starts an order of `flowId` over the API and returns its id. */
export async function startOrder(service: ServiceProcess, flowId: string): Promise<string> {
  const started = await service.call('POST', '/api/v1/orders', startBody(flowId));
  expect(started.status, started.text).toBe(201);
  return started.body.orderId;
}

/** Restarts the service on the same database and moves its test clock past the call's lease; returns the completed order. */
export async function restartUntilCompleted(service: ServiceProcess, orderId: string): Promise<any> {
  await service.start();
  const advanced = await service.call('POST', '/api/v1/test/clock', { advanceMs: 60_000 });
  expect(advanced.status, advanced.text).toBe(200);
  return until('the order completed', async () => {
    const res = await service.call('GET', `/api/v1/orders/${orderId}`);
    return res.status === 200 && res.body.status === 'completed' ? res.body : null;
  });
}

/** The order's whole stored timeline as `kind node`, in order. */
export async function storedHistory(db: DbProbe, orderId: string): Promise<string[]> {
  const rows = await db('SELECT kind, node_id FROM order_timeline WHERE order_id = $1 ORDER BY chunk_id, pos', [orderId]);
  return rows.map((r) => `${r.kind}${r.node_id ? ` ${r.node_id}` : ''}`);
}

/** Moves the test clock ten minutes on and checks `path` saw no request beyond `count`: the call's timer is retired. */
export async function expectNoLaterCall(service: ServiceProcess, receiver: ScriptedReceiver, path: string, count: number): Promise<void> {
  expect((await service.call('POST', '/api/v1/test/clock', { advanceMs: 600_000 })).status).toBe(200);
  expect(receiver.on(path)).toHaveLength(count);
}
