// zod validation failures as the `{ path, message }` issues every transport reports.
import type { z } from 'zod';

/** Converts zod issues into `{ path, message }` entries with dotted paths, under `prefix`. */
export function zodIssues(error: z.ZodError, prefix: (string | number)[] = []): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: [...prefix, ...i.path.map((p) => String(p))].join('.'), message: i.message }));
}
