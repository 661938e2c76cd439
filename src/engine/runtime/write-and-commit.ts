// A command's last round trip: the slice's one write and COMMIT in one message once the connection has the write prepared.
//
// The slice write is a named statement (slice-write.ts): each pool connection parses and plans each shape once.
// The first time a connection meets a shape it goes as usual (Parse, Bind, Execute) and COMMIT follows in its
// own round trip; after that the write goes as `EXECUTE name(literals); COMMIT` (named-statements.ts), the
// same cached plan in one round trip fewer per command. If the write fails, the transaction is aborted and the
// COMMIT in the same message does not run; the caller's ROLLBACK ends it.
import type { PoolClient } from 'pg';
import { sendJoined, type NamedStatement } from './named-statements.js';

/** Sends `statement` and COMMIT on `client` (in a transaction the caller opened): one round trip once the connection prepared it. */
export async function writeAndCommit(client: PoolClient, statement: NamedStatement): Promise<void> {
  await sendJoined(client, { statement, after: ['COMMIT'] });
}
