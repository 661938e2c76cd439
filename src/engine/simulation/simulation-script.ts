// The script a simulation plays each time its run stops and waits (contract 14): events, decisions, clock advances, call answers, holds.

/** One script entry as the host applies it (the request's `advance` duration already in ms). */
export type SimulationStep =
  | { kind: 'event'; event: string; payload: Record<string, unknown> }
  | { kind: 'decision'; decision: 'approved' | 'rejected'; nodeId: string | null; note: string | null }
  | { kind: 'advance'; ms: number }
  /** Answers the next `http.call` of `nodeId` (used only at that call; anywhere else it does not apply). */
  | { kind: 'respond'; nodeId: string; status: number; body: unknown }
  | { kind: 'hold'; nodeId: string | null; action: 'retry' | 'rollback' };

/** Who a scripted decision is recorded as (contract 14: not role-checked, nothing is decided for real). */
export const SIMULATION_ACTOR = 'simulation';
