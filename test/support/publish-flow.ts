// Saves a flow draft and publishes it over REST (the workspace password is an operator); returns the version.
import type { TestService } from './test-service.js';

export async function publishFlow(t: TestService, id: string, graph: unknown, extra: Record<string, unknown> = {}): Promise<number> {
  const saved = await t.call('PUT', `/api/v1/flows/${id}`, { name: id, graph, ...extra });
  if (saved.status !== 200 || saved.body.problems.length) throw new Error(`draft ${id}: ${saved.status} ${saved.text}`);
  const published = await t.call('POST', `/api/v1/flows/${id}/publish`);
  if (published.status !== 200) throw new Error(`publish ${id}: ${published.status} ${published.text}`);
  return published.body.version;
}
