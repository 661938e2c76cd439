// Simulating a flow (contract 14): one order run through a draft, a published version or an unsaved graph, against the workspace's
// real data read first, in memory, on a simulated clock; nothing of it survives and it never blocks a real order.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/db.js';
import type { Clock } from '../../platform/clock.js';
import type { Engine } from '../../engine/engine-module.js';
import { compileFlow, COMPILER_VERSION, type CompiledFlow } from '../../engine/compiler.js';
import { analyseGraph } from '../../engine/validator.js';
import { FlowProblemsError } from '../../engine/flows/flow-store.js';
import type { RunRow } from '../../engine/runtime/run-row.js';
import { SimulatedRun } from '../../engine/simulation/simulated-run.js';
import { SimulationBudget, SIMULATION_LIMITS, type SimulationLimits } from '../../engine/simulation/simulation-budget.js';
import { canFail, withFailingSteps } from '../../engine/simulation/failing-steps.js';
import { readCommerceSnapshot } from '../../commerce/commerce-snapshot-repo.js';
import { simulatedCommerceWorld } from '../../commerce/simulated-ports/simulated-commerce-ports.js';
import { notFound, ValidationError, type ValidationIssue } from '../../domain/errors.js';
import { orderFromInput } from '../order-from-input.js';
import { simulationAnswer, type SimulationAnswer } from './simulation-answer.js';
import { SimulationGate, type SimulationGateLimits } from './simulation-gate.js';
import { simulationSteps, type SimulateBody } from './simulation-request.js';

export interface FlowSimulationsDeps {
  db: Db;
  clock: Clock;
  engine: Pick<Engine, 'catalogue' | 'flows' | 'registry'>;
}

export interface FlowSimulationsOptions {
  budget?: SimulationLimits;
  gate?: SimulationGateLimits;
}

/** The node types whose steps read the order's document: with one in the flow and a document given, the whole catalogue is read. */
const READS_DOCUMENTS = new Set(['ai.extract_order']);

/** A simulated order's id: shaped like none of the real ones (`ord_`), so it can never be taken for one. */
function simulatedOrderId(): string {
  return `sim_${randomBytes(12).toString('hex')}`;
}

/** The graph to simulate: an unsaved one, a published version, or the saved draft (404 when there is none). */
async function graphToSimulate(deps: FlowSimulationsDeps, id: string, body: SimulateBody): Promise<{ name: string; version: number | null; graph: unknown; compiled?: CompiledFlow }> {
  if (body.graph !== undefined && body.version !== undefined)
    throw new ValidationError([{ path: 'graph', message: 'Give a version or a graph, not both' }]);
  const flow = await deps.engine.flows.get(deps.db, id);
  if (body.graph !== undefined) return { name: flow?.name ?? id, version: null, graph: body.graph };
  if (body.version !== undefined) {
    const row = await deps.engine.flows.version(deps.db, id, body.version);
    if (!row) throw notFound('Flow version');
    const { compiled } = await deps.engine.registry.load(deps.db, id, body.version);
    return { name: row.name, version: row.version, graph: row.graph, compiled };
  }
  if (!flow) throw notFound('Flow');
  return { name: flow.name, version: null, graph: flow.draftGraph };
}

/** The script's and failSteps' node ids checked against the flow: 400 naming each that is not there or cannot do what is asked. */
function checkNodes(flow: CompiledFlow, body: SimulateBody): void {
  const issues: ValidationIssue[] = [];
  (body.failSteps ?? []).forEach((nodeId, i) => {
    const compiled = flow.nodes.get(nodeId);
    if (!compiled) issues.push({ path: `failSteps.${i}`, message: `No node ${nodeId} in the flow` });
    else if (!canFail(compiled)) issues.push({ path: `failSteps.${i}`, message: `${nodeId} (${compiled.def.type}) is not a step: only steps fail` });
  });
  (body.script ?? []).forEach((entry, i) => {
    const named = 'respond' in entry ? entry.respond : 'decision' in entry ? entry.nodeId : 'hold' in entry ? entry.hold : undefined;
    if (named !== undefined && !flow.nodes.has(named)) issues.push({ path: `script.${i}`, message: `No node ${named} in the flow` });
    else if ('respond' in entry && !flow.nodes.get(entry.respond)?.def.answer) issues.push({ path: `script.${i}.respond`, message: `${entry.respond} makes no external call to answer` });
  });
  if (issues.length > 0) throw new ValidationError(issues);
}

export class FlowSimulations {
  readonly gate: SimulationGate;
  private readonly budget: SimulationLimits;

  constructor(private readonly deps: FlowSimulationsDeps, options: FlowSimulationsOptions = {}) {
    this.gate = new SimulationGate(options.gate);
    this.budget = options.budget ?? SIMULATION_LIMITS;
  }

  /**
   * Runs one simulated order for `caller` (the per-caller limits' key). The graph is checked and
   * compiled, the workspace's data the run needs is read in one plain statement (no lock, the
   * connection back before any step runs), then the order starts and plays the script in memory
   * with the node types' own bodies over the simulated ports. Throws 400 (bad graph, script or
   * input; past the budget), 404 (unknown flow or version), 429 (over the caller's limits).
   */
  async simulate(caller: string, id: string, body: SimulateBody): Promise<SimulationAnswer> {
    const release = await this.gate.admit(caller, this.deps.clock.now());
    try {
      return await this.run(id, body);
    } finally {
      release();
    }
  }

  private async run(id: string, body: SimulateBody): Promise<SimulationAnswer> {
    const { db, clock, engine } = this.deps;
    const target = await graphToSimulate(this.deps, id, body);
    let compiled = target.compiled;
    if (!compiled) {
      const problems = analyseGraph(target.graph, engine.catalogue).problems;
      if (problems.length > 0) throw new FlowProblemsError(problems);
      compiled = compileFlow(`${id}@simulation`, target.graph, engine.catalogue);
    }
    checkNodes(compiled, body);

    const { input } = body;
    const readsDocuments = input.documentText !== undefined && [...compiled.nodes.values()].some((n) => READS_DOCUMENTS.has(n.def.type));
    const snapshot = await readCommerceSnapshot(db, { skus: (input.lines ?? []).map((l) => l.sku), wholeCatalogue: readsDocuments, customerId: input.customerId ?? null });

    // The order as startOrder records it: the same facts and lines from the same input, the run not started.
    const { facts, lines, stored, documentText } = orderFromInput(input, snapshot.settings);
    const now = clock.now();
    const order: RunRow = {
      id: simulatedOrderId(),
      flowId: id,
      flowVersion: target.version ?? 0,
      facts: { ...facts, returnOf: null },
      input: stored,
      meta: input.meta ?? {},
      status: 'queued',
      reason: null,
      instanceId: `sim-${randomBytes(8).toString('hex')}`,
      generation: 1,
      snapshot: null,
      compilerVersion: COMPILER_VERSION,
      vars: body.vars ?? {},
      rollback: null,
      stepSeq: 0,
      started: false,
      createdAt: now,
      updatedAt: now,
    };

    const world = simulatedCommerceWorld(snapshot, { orderId: order.id, lines, documentText: documentText ?? null });
    const budget = new SimulationBudget(this.budget);
    const run = new SimulatedRun(withFailingSteps(compiled, body.failSteps ?? []), order, world, budget);
    await run.play(simulationSteps(body.script ?? []));
    return simulationAnswer({ flow: { id, version: target.version, name: target.name, graph: target.graph }, compiled, run, lines: world.ledger.lines, slices: budget.slices });
  }
}
