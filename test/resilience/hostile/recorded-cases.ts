// Bodies that once broke a route (found by the hostile-input runs); replayed on every run so they stay fixed.
import type { HostileBody } from './schema-arbitrary.js';

export interface RecordedCase {
  method: 'post' | 'put' | 'patch';
  /** The route path as registered (`:id` becomes an order waiting for an event, `:nodeId` its wait). */
  route: string;
  body: HostileBody;
  /** What went wrong before the fix. */
  was: string;
}

export const RECORDED_CASES: RecordedCase[] = [];
