import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/database';
import { databaseUrl, withClient } from '../support/postgres';

const serverUrl = process.env.TEST_DATABASE_URL;

// QUERY_TIMEOUT on PostgreSQL: the server cancels a statement that outlives the request's deadline.
describe.skipIf(!serverUrl)('statement_timeout on PostgreSQL (QUERY_TIMEOUT)', () => {
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  let database: Database;

  beforeAll(async () => {
    await withClient(serverUrl!, (admin) => admin.query(`CREATE DATABASE ${name}`));
    database = await openDatabase({ databaseUrl: databaseUrl(serverUrl!, name), dataDir: '', statementTimeoutMs: 200 });
    // Migrations run without the deadline.
    await database.migrate();
  });

  afterAll(async () => {
    await database?.close();
    await withClient(serverUrl!, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });

  it('cancels a statement running past the deadline; migrations still apply', async () => {
    // The server's own cancellation, not a client-side timer, says so.
    await expect(database.prisma.$queryRawUnsafe('SELECT pg_sleep(60)')).rejects.toThrow(/statement timeout/);
    await expect(database.prisma.$queryRawUnsafe('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    expect(await database.pendingMigrations()).toEqual([]);
  });
});
