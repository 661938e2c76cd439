// A real OpenAPI client can call the API: types generated from the served openapi.json (openapi-typescript),
// a client typed by them (openapi-fetch) type-checks under strict tsc, then starts and reads an order.
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_PASSWORD, type TestService } from '../../support/test-service.js';
import { graphs, publishFlow, startOrdersService } from './orders-support.js';

/** Optional dev dependencies; the test runs once they are installed. */
const GENERATOR = 'openapi-typescript';
const CLIENT = 'openapi-fetch';
const generator = await import(/* @vite-ignore */ GENERATOR).catch(() => null);
const clientAvailable = await import(/* @vite-ignore */ CLIENT).then(() => true, () => false);

const CLIENT_SOURCE = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

export async function run(baseUrl: string, token: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const started = await client.POST('/api/v1/orders', {
    body: { flowId: 'wait-flow', input: { model: 'b2c', title: 'Typed', lines: [{ sku: 'MUG-1', qty: 1, unitPrice: 9.5 }] } },
    params: { header: { 'Idempotency-Key': 'typed-client-1' } },
  });
  if (!started.data) throw new Error('start failed: ' + started.response.status);
  const orderId: string = started.data.orderId;
  const read = await client.GET('/api/v1/orders/{id}', { params: { path: { id: orderId } } });
  if (!read.data) throw new Error('read failed');
  const status: string = read.data.status;
  const total: number = read.data.order.total;
  const list = await client.GET('/api/v1/orders', { params: { query: { q: orderId, limit: 5 } } });
  const listed: string[] = (list.data?.orders ?? []).map((o) => o.id);
  const delivered = await client.POST('/api/v1/orders/{id}/events', { params: { path: { id: orderId } }, body: { event: 'payment.received' } });
  return { orderId, code: started.response.status, status, total, listed, delivered: delivered.data?.delivered ?? null };
}
`;

let t: TestService;
let dir: string;
beforeAll(async () => {
  t = await startOrdersService();
  await publishFlow(t, 'wait-flow', graphs.eventWait);
  dir = mkdtempSync(path.join(os.tmpdir(), 'oo-typed-client-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('typed OpenAPI client', () => {
  it.skipIf(!generator || !clientAvailable)(`generated with ${GENERATOR}, called with ${CLIENT}`, async () => {
    const doc = (await t.call('GET', '/api/v1/openapi.json', undefined, { token: null })).body;
    const ast = await generator.default(doc);
    writeFileSync(path.join(dir, 'schema.d.ts'), generator.astToString(ast));
    writeFileSync(path.join(dir, 'client.ts'), CLIENT_SOURCE);
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: 'out', types: [] },
        files: ['client.ts'],
      }),
    );
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    symlinkSync(path.resolve('node_modules', CLIENT), path.join(dir, 'node_modules', CLIENT), 'dir');
    // Strict type-check and emit: a wrong path, body or response field in CLIENT_SOURCE fails here.
    const tsc = path.resolve('node_modules', 'typescript', 'bin', 'tsc');
    await promisify(execFile)(process.execPath, [tsc, '-p', dir]).catch((err: { stdout?: string }) => {
      throw new Error(`tsc failed:\n${err.stdout}`);
    });
    // The types are real: a start body with an unknown model does not type-check.
    writeFileSync(path.join(dir, 'client.ts'), CLIENT_SOURCE.replace("model: 'b2c'", "model: 'retail'"));
    const refused = await promisify(execFile)(process.execPath, [tsc, '-p', dir, '--noEmit']).then(() => null, (err: { stdout?: string }) => err.stdout ?? '');
    expect(refused).toMatch(/retail/);
    const { run } = await import(/* @vite-ignore */ pathToFileURL(path.join(dir, 'out', 'client.js')).href);
    const result = await run(t.url, WORKSPACE_PASSWORD);
    expect(result).toMatchObject({ code: 201, status: 'waiting', total: 9.5, delivered: true });
    expect(result.listed).toEqual([result.orderId]);
  }, 60_000);
});
