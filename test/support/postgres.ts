import pg from 'pg';

/** The URL of database `name` on the server `serverUrl` names (same host, user and options). */
export const databaseUrl = (serverUrl: string, name: string) =>
  Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;

/** Runs `work` on a client of its own connected to `url`, closed afterwards whatever happens. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
