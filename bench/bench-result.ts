// What a scenario reports: table rows (metric, value, target, met) and its raw numbers for the results file.

export interface ResultRow {
  metric: string;
  /** Shown as is; numbers are formatted by the table. */
  value: number | string;
  unit?: string;
  /** The target, as text ("<= 8", "< 25 ms"). */
  target?: string;
  /** Whether the target is met (undefined when there is no target). */
  met?: boolean;
}

export interface ScenarioResult {
  scenario: string;
  /** One line saying how it was run (what load, which scheduler, subscribers attached or not). */
  setup: string;
  rows: ResultRow[];
  /** Everything measured, for bench/results/<date>.json. */
  data: Record<string, unknown>;
  /** Correctness problems found (missing orders, duplicates); a non-empty list fails the run. */
  problems: string[];
}

export const row = (metric: string, value: number | string, unit?: string, target?: string, met?: boolean): ResultRow => ({ metric, value, unit, target, met });

/** A scenario that could not run here (e.g. no Redis), shown as such in the table. */
export function skipped(scenario: string, why: string): ScenarioResult {
  return { scenario, setup: `skipped: ${why}`, rows: [{ metric: 'skipped', value: why }], data: { skipped: why }, problems: [] };
}

/** A scenario that threw: its error is a correctness problem (the run exits 1), the other scenarios still report. */
export function failed(scenario: string, message: string): ScenarioResult {
  return { scenario, setup: 'failed', rows: [{ metric: 'failed', value: message.slice(0, 200) }], data: { failed: message }, problems: [`failed: ${message}`] };
}
