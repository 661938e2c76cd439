// Test helper: a StepContext for pure node tests (no database: every port throws if a node touches it; testPorts gives some).
import { ManualClock } from '../../../src/platform/clock.js';
import type { OrderView, StepContext } from '../../../src/engine/node-type.js';
import type { StepPorts } from '../../../src/engine/step-store.js';

/** Ports whose every member throws: a pure node reads none. */
const noPorts = new Proxy({}, {
  get(_target, port) {
    throw new Error(`pure node touched the port ${String(port)}`);
  },
}) as StepPorts;

/** The members of some ports a test gives a node; every other port and member throws when touched. */
export type SomePorts = { [K in keyof StepPorts]?: Partial<StepPorts[K]> };

/** Ports for a node test: the given members answer, anything else throws naming the port and member touched. */
export function testPorts(given: SomePorts): StepPorts {
  return new Proxy({}, {
    get(_target, port) {
      const members = (given as Record<string | symbol, object | undefined>)[port];
      if (!members) throw new Error(`the node touched the port ${String(port)}`);
      return new Proxy(members, {
        get(target, member) {
          const value = (target as Record<string | symbol, unknown>)[member];
          if (value === undefined) throw new Error(`the node touched ${String(port)}.${String(member)}`);
          return value;
        },
      });
    },
  }) as StepPorts;
}

export function testOrder(overrides: Partial<OrderView> = {}): OrderView {
  return {
    id: 'ord_1',
    flowId: 'test-flow',
    flowVersion: 1,
    generation: 1,
    instanceId: 'inst-1',
    model: 'b2c',
    channel: 'web',
    currency: 'USD',
    fxRate: 1,
    externalId: 'EXT-9',
    title: null,
    customerId: null,
    contactEmail: null,
    returnOf: null,
    subtotal: 10000,
    tax: 800,
    total: 10800,
    input: {},
    meta: {},
    ...overrides,
  };
}

export function stepContext<P>(params: P, overrides: Partial<StepContext<P>> = {}): StepContext<P> {
  return {
    nodeId: 'node',
    params,
    attempt: 1,
    order: testOrder(),
    vars: {},
    nodes: {},
    passes: {},
    ports: noPorts,
    clock: new ManualClock(1_000),
    wiredBranches: [],
    ...overrides,
  };
}
