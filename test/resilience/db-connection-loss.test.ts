// A PostgreSQL connection lost in the middle of a transaction (issue "Resilience": PostgreSQL outage): the transaction
// fails with an error the edge answers 503, the process does not crash, and the pool serves the next query.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { Db } from '../../src/db/db.js';
import { toErrorResponse } from '../../src/transport/http-errors.js';
import { createTestDatabase, type TestDatabase } from '../support/test-db.js';

let database: TestDatabase | null = null;
let db: Db | null = null;
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('connection lost inside a transaction', () => {
  it('the server ends the session between two queries of a transaction: it rejects with a 503-class error, nothing crashes, the pool recovers', async () => {
    database = await createTestDatabase();
    db = new Db(database.url, 2);
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    let failure: unknown = null;
    try {
      await db.tx(async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
        // The termination reaches the client while no query of it runs (the moment an unheard 'error' event crashes a process).
        await new Promise((r) => setTimeout(r, 300));
        await client.query('SELECT 1');
      });
    } catch (err) {
      failure = err;
    } finally {
      await admin.end();
    }
    expect(failure).not.toBeNull();
    expect(toErrorResponse(failure)).toMatchObject({ status: 503, body: { error: 'Service temporarily unavailable' } });
    expect((await db.query<{ ok: number }>('SELECT 1 AS ok')).rows[0].ok).toBe(1);
    expect((await db.tx((c) => c.query<{ ok: number }>('SELECT 2 AS ok'))).rows[0].ok).toBe(2);
  });
});
