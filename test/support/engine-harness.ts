// Drives the engine through its runtime API on a real service: publish a graph, record and start orders.
import type { Engine } from '../../src/engine/engine-module.js';
import { insertOrder, newOrderId, type NewOrder } from '../../src/orders/new-order.js';
import { readLiveState } from '../../src/orders/order-live-state.js';
import { startTestService, type TestService, type TestServiceOptions } from './test-service.js';
import { testEffect, testEffectPorts, TEST_EFFECTS_DDL } from './test-node-types.js';

export interface EngineHarness {
  t: TestService;
  engine: Engine;
  publish(flowId: string, graph: unknown): Promise<number>;
  startOrder(flowId: string, version: number, extra?: Partial<NewOrder>): Promise<string>;
  state(orderId: string): Promise<any>;
  effects(orderId: string): Promise<{ node_id: string; kind: string; attempt: number }[]>;
  close(): Promise<void>;
}

export async function startEngineHarness(options: TestServiceOptions = {}): Promise<EngineHarness> {
  const t = await startTestService({ ...options, start: { engine: { nodeTypes: [testEffect], ports: testEffectPorts, builtinFlows: false }, ...options.start } });
  const engine = t.service.ctx.engine!;
  const db = t.service.ctx.db;
  await db.query(TEST_EFFECTS_DDL);
  const now = () => t.service.ctx.clock.now();
  return {
    t,
    engine,
    async publish(flowId, graph) {
      return db.tx(async (tx) => {
        const { problems } = await engine.flows.saveDraft(tx, { id: flowId, name: flowId, graph }, now());
        if (problems.length) throw new Error(`test graph has problems: ${JSON.stringify(problems)}`);
        return (await engine.flows.publish(tx, flowId, 'test', now())).version;
      });
    },
    async startOrder(flowId, version, extra = {}) {
      const id = newOrderId();
      await insertOrder(
        db,
        {
          id, flowId, flowVersion: version, model: 'b2c', channel: 'api', externalId: null, title: 'Test order', customerId: null,
          contactEmail: null, currency: 'USD', fxRate: 1, subtotal: 1000, tax: 0, total: 1000, input: {}, meta: {},
          vars: {}, lines: [], ...extra,
        },
        now(),
      );
      await engine.runtime.start(id);
      return id;
    },
    state: (orderId) => readLiveState(db, engine.registry, orderId),
    async effects(orderId) {
      const { rows } = await db.query<{ node_id: string; kind: string; attempt: number }>('SELECT node_id, kind, attempt FROM test_effects WHERE order_id = $1 ORDER BY id', [orderId]);
      return rows;
    },
    close: () => t.close(),
  };
}

/** Graph builder shorthands for tests. */
export const n = (id: string, type: string, params?: Record<string, unknown>, label?: string) => ({ id, type, ...(params ? { params } : {}), ...(label ? { label } : {}) });
export const e = (from: string, to: string, branch?: string) => ({ from, to, ...(branch ? { branch } : {}) });
