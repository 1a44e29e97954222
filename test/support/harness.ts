import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, inject } from 'vitest';
import { type App, createApp } from '../../src/app';
import { loadServerKey } from '../../src/auth/server-key';
import { type Config, loadConfig } from '../../src/config';
import { type Database, openDatabase } from '../../src/db/database';
import { createLogger } from '../../src/http/logging';
import { openFileStore, useFileStore } from '../../src/modules/uploads/file-store';
import { createHttpServer } from '../../src/http/server';
import { assertWireContract } from './contract';
import { databaseUrl, withClient } from './postgres';
import { testOrigin } from './wire';

export { testOrigin };

export interface TestServer {
  app: App;
  database: Database;
  config: Config;
  serverKey: Buffer;
  /** `app.fetch` with a path relative to http://lectern.test. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * A uniquely named PostgreSQL database on TEST_DATABASE_URL's server, a copy of the run's migrated template
 * (test/support/global-setup.ts), dropped by the returned function.
 */
async function createPostgresDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `lectern_test_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`));
  return {
    url: databaseUrl(serverUrl, name),
    async drop() {
      await withClient(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Starts the app on a fresh database for one test file: in-memory PGlite by default, PostgreSQL when
 * TEST_DATABASE_URL is set. `env` overrides configuration (RATE_LIMIT, PUBLIC_URL, ...).
 */
/**
 * Serves the test server's app on a free loopback port, as `npm start` does (HTTP and graphql-ws), for tests that need
 * a real socket; `close` ends the WebSockets and the listener.
 */
export async function listenOnLoopback(server: TestServer): Promise<{ port: number; close(): Promise<void> }> {
  const { server: http, closeSockets } = createHttpServer(server.app, { bodyLimitBytes: server.config.bodyLimitBytes });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    port: (http.address() as AddressInfo).port,
    async close() {
      await closeSockets();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

// Read once per worker process: the worker keeps its modules from file to file (vitest.config.ts).
let pgliteTemplate: Promise<Blob> | undefined;
const migratedPGlite = () =>
  (pgliteTemplate ??= readFile(inject('pgliteTemplateFile')).then((bytes) => new Blob([bytes])));

export function useTestServer(env: Record<string, string> = {}): TestServer {
  const server = {} as TestServer;
  let dropDatabase: (() => Promise<void>) | null = null;
  let closeFiles: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    let databaseUrl: string | null = null;
    if (process.env.TEST_DATABASE_URL) {
      const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
      databaseUrl = created.url;
      dropDatabase = created.drop;
    }
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT: 'off',
      // Every in-process request comes from one address (there is no socket): test/auth/auth-failures.test.ts turns
      // these on; links keep the origin tests address their requests to.
      AUTH_FAILURES_PER_ADDRESS: 'off',
      AUTH_FAILURES_PER_CONSUMER_KEY: 'off',
      ANONYMOUS_REQUESTS_PER_ADDRESS: 'off',
      ALLOWED_HOSTS: new URL(testOrigin).host,
      DATA_DIR: 'memory://',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      SECRET_KEY: randomBytes(32).toString('hex'),
      // Tests change users and credentials in the database between requests: each request reads them anew, and
      // test/hot-path/ turns the cache on.
      CREDENTIAL_CACHE_MS: '0',
      ...env,
    });
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      pgliteTemplate: config.databaseUrl ? undefined : await migratedPGlite(),
    });
    const serverKey = await loadServerKey(config);
    const files = await openFileStore(config);
    useFileStore(files);
    closeFiles = () => files.close();
    const app = createApp({ config, database, serverKey, logger: createLogger(config) });
    // Every /v1 exchange through app.fetch is held to its route's wire contract (test/support/contract.ts). The
    // server adapter hands out a fresh `fetch` on each read, so the app is wrapped rather than patched.
    const checkedFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const response = await app.fetch(request);
      if (new URL(request.url).pathname.startsWith('/v1')) await assertWireContract(request, response);
      return response;
    };
    const checkedApp = new Proxy(app, {
      get: (target, key) => (key === 'fetch' ? checkedFetch : Reflect.get(target, key)),
    });
    Object.assign(server, {
      app: checkedApp,
      database,
      config,
      serverKey,
      fetch: (path: string, init?: RequestInit) => checkedFetch(new Request(new URL(path, testOrigin), init)),
    });
  });

  afterAll(async () => {
    await server.database?.close();
    await closeFiles?.();
    await dropDatabase?.();
  });

  return server;
}
