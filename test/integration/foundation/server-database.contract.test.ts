// The database contract on the PostgreSQL server named by TEST_DATABASE_URL (skipped without it).
import { describe } from 'vitest';
import { describeDatabaseContract } from './database.contract.js';

const url = process.env.TEST_DATABASE_URL;
if (url) describeDatabaseContract('server', async () => url);
else describe.skip('database contract: server (TEST_DATABASE_URL not set)', () => {});
