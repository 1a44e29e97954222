import { encodeGlobalId } from '../../src/core/global-id';
import { spawn, spawnSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OAuth from 'oauth-1.0a';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../src/db/database';
import { processTestTimeoutMs, type ServerProcess, startServerProcess, waitForOutput } from '../support/process';

// Each test starts the server as a child process (PGlite, migrations): tens of seconds when another test file
// shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

// `npm start` as a newcomer runs it: the first start on an empty embedded database seeds the demo district and prints
// credentials for both APIs, once. Each start is a real server process; waits are on its output, never on a clock.

const tempDir = mkdtempSync(join(tmpdir(), 'lectern-first-start-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

const listening = /"msg":"Lectern listening: /;

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited, server.output()).toBe(0);
}

/** Districts in the embedded database, read once the server has stopped and released it. */
async function districtsIn(dataDir: string): Promise<number> {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  try {
    return await database.prisma.district.count();
  } finally {
    await database.close();
  }
}

interface Printed {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  userId: string;
  graphqlCurl: string;
  restCurl: string;
}

function parseBlock(output: string): Printed {
  const value = (label: string) => {
    const match = new RegExp(`^  ${label}:\\s+(\\S+)$`, 'm').exec(output);
    if (!match) throw new Error(`no "${label}" in:\n${output}`);
    return match[1];
  };
  const curl = (path: string) => {
    const match = new RegExp(`^  (curl -s \\S+${path} .*)$`, 'm').exec(output);
    if (!match) throw new Error(`no curl line for ${path} in:\n${output}`);
    return match[1];
  };
  return {
    consumerKey: value('consumer key'),
    consumerSecret: value('consumer secret'),
    token: value('bearer token'),
    userId: /\(user (\d+)\)/.exec(output)![1],
    graphqlCurl: curl('/graphql'),
    restCurl: curl('/v1/users/\\d+'),
  };
}

function graphql(base: string, token: string, query: string) {
  return fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  }).then((response) => response.json());
}

/** GET signed with two-legged OAuth 1.0a, HMAC-SHA1, by a client library. */
function signedGet(url: string, consumer: { key: string; secret: string }) {
  const oauth = new OAuth({
    consumer,
    signature_method: 'HMAC-SHA1',
    hash_function: (text, key) => createHmac('sha1', key).update(text).digest('base64'),
    realm: 'Schoology API',
  });
  return fetch(url, { headers: { ...oauth.toHeader(oauth.authorize({ method: 'GET', url })) }, redirect: 'manual' });
}

/** Runs a printed command line in bash, as a person pastes it. */
function shell(line: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', line], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

// Creating an embedded database takes seconds, so the SEED_DEMO=off server starts now, beside the first one below.
const offDataDir = join(tempDir, 'off');
const offServer = startServerProcess({ DATA_DIR: offDataDir, LOG_LEVEL: 'info', SEED_DEMO: 'off' });
afterAll(async () => {
  const server = await offServer;
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
});

describe('first start on an empty embedded database', () => {
  const dataDir = join(tempDir, 'embedded');
  let server: ServerProcess;
  let printed: Printed;

  beforeAll(async () => {
    server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    await waitForOutput(server, /^Lost them\? .*$/m);
    printed = parseBlock(server.output());
  });
  afterAll(() => server && stop(server));

  it('prints a consumer key and secret and a bearer token', () => {
    expect(server.output()).toContain('First start on an empty database (SEED_DEMO=off skips this).');
    expect(printed.consumerKey).toMatch(/^[\w-]{16,}$/);
    expect(printed.consumerSecret).toMatch(/^[\w-]{24,}$/);
    expect(printed.token).toMatch(/^[\w-]{32,}$/);
    expect(server.output()).toMatch(
      /^Lost them\? npx lectern seed-demo \(with the server stopped\) makes another demo district/m,
    );
  });

  it('the bearer token answers on /graphql', async () => {
    expect(await graphql(server.base, printed.token, '{ viewer { id: databaseId } }')).toEqual({
      data: { viewer: { id: printed.userId } },
    });
  });

  it('the consumer key and secret sign /v1 requests', async () => {
    const me = await signedGet(`${server.base}/v1/users/me`, {
      key: printed.consumerKey,
      secret: printed.consumerSecret,
    });
    expect(me.status, await me.text()).toBe(303);
    expect(me.headers.get('location')).toBe(`${server.base}/v1/users/${printed.userId}`);
  });

  it.skipIf(!hasCurl)('the printed curl lines work as pasted into bash, the PLAINTEXT one on every run', async () => {
    expect(printed.graphqlCurl).toContain(`${server.base}/graphql`);
    const viewer = await shell(printed.graphqlCurl);
    expect(viewer, viewer.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(viewer.stdout)).toEqual({
      data: {
        viewer: {
          id: encodeGlobalId('User', printed.userId),
          databaseId: printed.userId,
          username: expect.any(String),
        },
      },
    });

    // Twice: each run must send a fresh nonce, or the second would be refused as a replay.
    for (let run = 0; run < 2; run++) {
      const user = await shell(printed.restCurl);
      expect(user, user.stderr).toMatchObject({ code: 0 });
      expect(JSON.parse(user.stdout), user.stdout).toMatchObject({
        id: Number(printed.userId),
        links: { self: `${server.base}/v1/users/${printed.userId}` },
      });
    }
  });

  it('logs the seeding as structured fields, and no log line holds a secret', () => {
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    const logged = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg.startsWith('demo district created on first start'));
    expect(logged).toMatchObject({
      level: 30,
      districtId: expect.any(Number),
      userId: Number(printed.userId),
      consumerKey: printed.consumerKey,
      accessTokenId: expect.any(Number),
    });
    for (const line of lines) {
      expect(line).not.toContain(printed.consumerSecret);
      expect(line).not.toContain(printed.token);
    }
  });

  describe('the next start on the same folder', () => {
    let next: ServerProcess;
    beforeAll(async () => {
      await stop(server);
      next = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
      await waitForOutput(next, listening);
    });
    afterAll(() => next && stop(next));

    it('does not seed again nor print secrets, and says how to make new credentials', async () => {
      await waitForOutput(
        next,
        /^Demo credentials are printed on first start only; npx lectern seed-demo \(with the server stopped\) makes new ones\.$/m,
      );
      expect(next.output()).not.toContain('consumer secret');
      expect(next.output()).not.toContain('demo district created');
      // The first start's credentials still work: nothing was replaced.
      expect(await graphql(next.base, printed.token, '{ viewer { id: databaseId } }')).toEqual({
        data: { viewer: { id: printed.userId } },
      });
      await stop(next);
      expect(await districtsIn(dataDir)).toBe(1);
    });
  });
});

describe('SEED_DEMO=off', () => {
  it('an empty embedded database stays empty, and nothing is printed', async () => {
    const server = await offServer;
    await waitForOutput(server, listening);
    await stop(server);
    expect(server.output()).not.toMatch(/consumer secret|Demo credentials|demo district/i);
    expect(await districtsIn(offDataDir)).toBe(0);
  });
});

// PostgreSQL is shared and long-lived: never seeded unless SEED_DEMO=on asks for it.
const serverUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!serverUrl)('first start on PostgreSQL (TEST_DATABASE_URL)', () => {
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  const databaseUrl = Object.assign(new URL(serverUrl ?? 'postgresql://unused'), { pathname: `/${name}` }).href;
  const env = { DATABASE_URL: databaseUrl, SECRET_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'info' };

  async function sql<T>(url: string, text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const districts = async () =>
    Number((await sql<{ count: string }>(databaseUrl, 'SELECT count(*) FROM districts'))[0].count);

  beforeAll(() => sql(serverUrl!, `CREATE DATABASE ${name}`));
  afterAll(() => sql(serverUrl!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

  it('seeds nothing by default', async () => {
    const server = await startServerProcess(env);
    await waitForOutput(server, listening);
    await stop(server);
    expect(server.output()).not.toMatch(/consumer secret|Demo credentials|demo district/i);
    expect(await districts()).toBe(0);
  });

  it(
    'SEED_DEMO=on seeds once, even when two instances start together',
    async () => {
      const servers = await Promise.all([0, 1].map(() => startServerProcess({ ...env, SEED_DEMO: 'on' })));
      try {
        await Promise.all(
          servers.map((server) => waitForOutput(server, /^(Lost them\?|Demo credentials are printed) .*$/m)),
        );
        const seeded = servers.filter((server) => server.output().includes('consumer secret:'));
        expect(seeded).toHaveLength(1);
        const other = servers.find((server) => server !== seeded[0])!;
        // Several processes share PostgreSQL, so the hint does not ask to stop the server.
        expect(other.output()).toMatch(
          /^Demo credentials are printed on first start only; npx lectern seed-demo makes new ones\.$/m,
        );
        const printed = parseBlock(seeded[0].output());
        expect(await graphql(other.base, printed.token, '{ viewer { id: databaseId } }')).toEqual({
          data: { viewer: { id: printed.userId } },
        });
      } finally {
        await Promise.all(servers.map(stop));
      }
      expect(await districts()).toBe(1);
    },
    processTestTimeoutMs,
  );
});
