import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { restClientFor, type RestClient } from '../support/client';
import { createWorld } from '../support/factories';
import { useTestServer } from '../support/harness';

const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('when PostgreSQL drops the pooled connections', () => {
  const server = useTestServer();
  let client: RestClient;

  beforeAll(async () => {
    client = await restClientFor(server, (await createWorld()).teacher);
  });

  it('keeps serving: the pool reconnects instead of the process crashing', async () => {
    expect((await client.get('/groups')).status).toBe(200);
    const databaseName = new URL(server.config.databaseUrl!).pathname.slice(1);
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const { rows } = await admin.query(
      'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) AS killed',
      [databaseName],
    );
    await admin.end();
    expect(rows[0].n).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await client.get('/groups')).status).toBe(200);
  });
});
