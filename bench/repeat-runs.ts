// `--repeat K`: runs a scenario K times (each on a fresh database and service) and reports the median of every
// numeric metric; the per-run numbers stay in the results file.
import type { ResultRow, ScenarioResult } from './bench-result.js';
import type { ScenarioContext } from './scenario-context.js';

/** One run of a repeatable scenario: its numbers (every numeric leaf gets a median) and what else it recorded. */
export interface RunMeasure<N> {
  numbers: N;
  /** Everything this run measured for the results file (its numbers, checks, statement profiles). */
  data: Record<string, unknown>;
  /** Correctness problems of this run. */
  problems: string[];
  /** Orders that completed correctly, and orders started, for the exactly-once row. */
  completed: number;
  expected: number;
}

/** What the report of a (possibly repeated) scenario sees besides the median numbers. */
export interface RunsSummary {
  runs: number;
  /** Over all runs. */
  completed: number;
  expected: number;
  /** No run had a correctness problem. */
  ok: boolean;
}

export interface RepeatableScenario<N> {
  name: string;
  /** One full run: fresh database, service, warm-up, measurement, checks. */
  measure(run: number): Promise<RunMeasure<N>>;
  /** The setup line and table rows for the given numbers (the median ones when repeated). */
  report(numbers: N, summary: RunsSummary): { setup: string; rows: ResultRow[] };
}

/** The median of the values (mean of the middle two for an even count). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  // Rounded to 1e-6 so that averaging two rounded values does not print float noise (141.89999999999998).
  return s.length % 2 === 1 ? s[mid] : Math.round(((s[mid - 1] + s[mid]) / 2) * 1e6) / 1e6;
}

/**
 * The element-wise median of objects of the same shape: numeric leaves get the median over the
 * objects (null when any of them is null: not measured in some run); other values (text, lists)
 * are taken from the first.
 */
export function medianOf<T>(items: T[]): T {
  const [first] = items;
  if (typeof first === 'number') return median(items as number[]) as T;
  if (first === null || typeof first !== 'object' || Array.isArray(first)) {
    if (items.some((v) => v === null) && items.some((v) => typeof v === 'number')) return null as T;
    return first;
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(first)) {
    const values = items.map((i) => (i as Record<string, unknown>)[key]);
    if (values.some((v) => v === null || v === undefined) && values.some((v) => typeof v === 'number')) out[key] = null;
    else out[key] = medianOf(values);
  }
  return out as T;
}

/**
 * Runs the scenario `repeat` times. One run reports its own numbers and data unchanged; several
 * report the medians, with `data.runs` holding each run's numbers and data, and every run's
 * problems (prefixed with its number).
 */
export async function runRepeated<N>(ctx: ScenarioContext, scenario: RepeatableScenario<N>, repeat: number): Promise<ScenarioResult & { numbers: N }> {
  const runs: RunMeasure<N>[] = [];
  for (let i = 0; i < repeat; i++) {
    if (repeat > 1) ctx.log(`${scenario.name}: run ${i + 1} of ${repeat}`);
    runs.push(await scenario.measure(i));
  }
  const summary: RunsSummary = {
    runs: repeat,
    completed: runs.reduce((s, r) => s + r.completed, 0),
    expected: runs.reduce((s, r) => s + r.expected, 0),
    ok: runs.every((r) => r.problems.length === 0),
  };
  if (repeat === 1) {
    const [only] = runs;
    return { scenario: scenario.name, ...scenario.report(only.numbers, summary), data: only.data, problems: only.problems, numbers: only.numbers };
  }
  const numbers = medianOf(runs.map((r) => r.numbers));
  const { setup, rows } = scenario.report(numbers, summary);
  return {
    scenario: scenario.name,
    setup: `${setup}; median of ${repeat} runs, each on a fresh database and service`,
    rows,
    data: { repeat, median: numbers, runs: runs.map((r) => r.data) },
    problems: runs.flatMap((r, i) => r.problems.map((p) => `run ${i + 1}: ${p}`)),
    numbers,
  };
}
