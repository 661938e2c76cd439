// What every scenario gets: the options, the stack, and a way to show progress and notes.
import type { BenchOptions } from './bench-options.js';
import type { BenchStack } from './bench-stack.js';
import { progress, type Progress } from './progress.js';

export interface ScenarioContext {
  options: BenchOptions;
  stack: BenchStack;
  /** The workspace password the bench's services use. */
  password: string;
  log(line: string): void;
  progress(label: string, total: number): Progress;
}

export function scenarioContext(options: BenchOptions, stack: BenchStack, password: string): ScenarioContext {
  return {
    options,
    stack,
    password,
    log: (line) => {
      if (!options.quiet) process.stderr.write(`${line}\n`);
    },
    progress: (label, total) => progress(label, total, { quiet: options.quiet }),
  };
}

/** Waits until `check` is true, polling every `everyMs`; false after `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const DAY_MS = 86_400_000;
