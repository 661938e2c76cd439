// Built-in flows from machines/*.json, published at start when a file's content changed since it was last published.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Db } from '../../db/db.js';
import type { FlowStore } from './flow-store.js';

export const machinesDir = fileURLToPath(new URL('../../../machines/', import.meta.url));

/** The file format of a built-in flow. */
export const builtinFlowSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,99}$/),
  name: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  model: z.string().optional(),
  channels: z.array(z.string()).default([]),
  graph: z.unknown(),
});

const BUILTIN_LOCK = 7_342_200;

/**
 * Publishes each machines/*.json whose SHA-256 differs from the hash kept with the flow, under an
 * advisory lock so two nodes starting together publish once. An operator's newer version of an
 * unchanged file is left alone. Returns the ids published this time.
 */
export async function publishBuiltinFlows(db: Db, store: FlowStore, now: number, dir = machinesDir): Promise<string[]> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const published: string[] = [];
  await db.tx(async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [BUILTIN_LOCK]);
    for (const file of files) {
      const text = readFileSync(path.join(dir, file), 'utf8');
      const hash = createHash('sha256').update(text).digest('hex');
      const parsed = builtinFlowSchema.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error(`machines/${file} is not a valid flow file: ${parsed.error.message}`);
      const def = parsed.data;
      const existing = await store.get(client, def.id);
      if (existing?.builtinHash === hash) continue;
      await store.saveDraft(client, { ...def, graph: def.graph }, now);
      await store.publish(client, def.id, 'builtin', now);
      await client.query('UPDATE flows SET builtin_file = $2, builtin_hash = $3 WHERE id = $1', [def.id, file, hash]);
      published.push(def.id);
    }
  });
  return published;
}
