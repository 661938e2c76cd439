// Prints the numbers of a resilience run (and appends them to RESILIENCE_REPORT when set) for docs/reliability.md.
import { appendFileSync } from 'node:fs';

export function reportRun(scenario: string, numbers: Record<string, unknown>): void {
  const line = JSON.stringify({ scenario, at: new Date().toISOString(), ...numbers });
  console.log(`[resilience] ${line}`);
  if (process.env.RESILIENCE_REPORT) appendFileSync(process.env.RESILIENCE_REPORT, line + '\n');
}
