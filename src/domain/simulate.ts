// The `meta.simulate` switches of runtime-contract section 7: which built-in step to force down its failure path.
import { z } from 'zod';
import type { ValidationIssue } from './errors.js';

/** Every known switch; each forces one built-in step's failure path. */
export const SIMULATE_SWITCHES = ['high_risk', 'card_declined', 'out_of_stock', 'ship_error', 'capture_error', 'refund_error'] as const;

export type SimulateSwitch = (typeof SIMULATE_SWITCHES)[number];

const KNOWN = new Set<string>(SIMULATE_SWITCHES);

const unknownSwitchMessage = `must be one of ${SIMULATE_SWITCHES.join(', ')}`;

const switchSchema = z.enum(SIMULATE_SWITCHES, { error: unknownSwitchMessage });

/** `meta.simulate`: one switch or a list of switches; an unknown value is a 400 issue. */
export const simulateSchema = z.union([switchSchema, z.array(switchSchema).max(SIMULATE_SWITCHES.length * 4)], {
  error: `must be a string or a list of strings, each ${unknownSwitchMessage}`,
});

export function isSimulateSwitch(value: unknown): value is SimulateSwitch {
  return typeof value === 'string' && KNOWN.has(value);
}

export type SimulateParse = { ok: true; switches: Set<SimulateSwitch> } | { ok: false; issues: ValidationIssue[] };

/**
 * Parses a `meta.simulate` value (absent, a string or a list of strings) into a set of switches.
 * Issue paths are relative to `basePath` (default `meta.simulate`).
 */
export function parseSimulate(value: unknown, basePath = 'meta.simulate'): SimulateParse {
  if (value === undefined || value === null) return { ok: true, switches: new Set() };
  const values: unknown[] = Array.isArray(value) ? value : [value];
  if (!Array.isArray(value) && typeof value !== 'string')
    return { ok: false, issues: [{ path: basePath, message: 'must be a string or a list of strings' }] };
  const issues: ValidationIssue[] = [];
  const switches = new Set<SimulateSwitch>();
  values.forEach((v, i) => {
    const path = Array.isArray(value) ? `${basePath}.${i}` : basePath;
    if (isSimulateSwitch(v)) switches.add(v);
    else issues.push({ path, message: `${JSON.stringify(v)} ${unknownSwitchMessage}` });
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, switches };
}

/**
 * Reads the switches from an order's (already validated) `meta`, ignoring anything unknown:
 * what built-in steps call at run time to decide whether to fail on purpose.
 */
export function simulateSwitches(meta: unknown): Set<SimulateSwitch> {
  if (meta === null || typeof meta !== 'object') return new Set();
  const raw = (meta as { simulate?: unknown }).simulate;
  const values: unknown[] = Array.isArray(raw) ? raw : [raw];
  return new Set(values.filter(isSimulateSwitch));
}

/** True when `meta.simulate` asks for `which`. */
export function isSimulated(meta: unknown, which: SimulateSwitch): boolean {
  return simulateSwitches(meta).has(which);
}
