// Durations in flow params: `<n>s`, `<n>m`, `<n>h` or `<n>d` (runtime contract section 5) to milliseconds.
import { z } from 'zod';

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A positive whole number (at most 6 digits) followed by one unit letter. */
export const DURATION_PATTERN = /^([1-9][0-9]{0,5})([smhd])$/;

/** Whether `text` is a valid duration string. */
export function isDuration(text: string): boolean {
  return DURATION_PATTERN.test(text);
}

/** Converts a duration string to milliseconds; throws on anything else (params are validated first). */
export function parseDuration(text: string): number {
  const match = DURATION_PATTERN.exec(text);
  if (!match) throw new Error(`Invalid duration "${text}": use <n>s, <n>m, <n>h or <n>d, e.g. "2d"`);
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** zod schema for a duration param; the parsed value stays the string (the graph keeps it). */
export const durationSchema = z
  .string()
  .regex(DURATION_PATTERN, 'Expected a duration like "30s", "15m", "2h" or "2d" (a positive whole number and s, m, h or d)');
