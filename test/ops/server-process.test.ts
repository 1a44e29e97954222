import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { processTestTimeoutMs, startServerProcess, waitUntilReady } from '../support/process';

// Each test starts the server as a child process (PGlite, migrations): tens of seconds when another test file
// shares the machine's two cores.
vi.setConfig({ testTimeout: processTestTimeoutMs });

const dataDir = mkdtempSync(join(tmpdir(), 'lectern-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the server process', () => {
  it('starts on the embedded database, bootstraps a credential, logs JSON, and stops cleanly on SIGTERM', async () => {
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      BOOTSTRAP_CONSUMER_KEY: 'ci-key',
      BOOTSTRAP_CONSUMER_SECRET: 'ci-secret',
    });
    await waitUntilReady(server);
    const { base } = server;

    // PLAINTEXT with the bootstrap credential, as an acceptance test would send it.
    const header = (nonce: string) =>
      `OAuth realm="Schoology API", oauth_consumer_key="ci-key", oauth_token="", oauth_nonce="${nonce}", oauth_timestamp="${Math.floor(Date.now() / 1000)}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", oauth_signature="ci-secret%26"`;
    const me = await fetch(`${base}/v1/users/me`, { headers: { authorization: header('me') }, redirect: 'manual' });
    expect(me.status).toBe(303);
    expect(me.headers.get('location')).toMatch(new RegExp(`^${base}/v1/users/\\d+$`));

    // The OAuth 2.0 provider is built at its first request; what its library says then is logged as JSON too.
    const discovery = await fetch(`${base}/.well-known/openid-configuration`);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(base);

    // A subscription open over server-sent events must not hold the stopping server: its stream completes.
    const events = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization: header('sse'), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { realmEvents(realm: { type: DISTRICT, id: "1" }) { id } }' }),
    });
    expect(events.status).toBe(200);
    const stream = events.text();

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await stream).toContain('event: complete');
    const lines = server
      .output()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.some((line) => line.msg.startsWith(`Lectern listening: GraphQL at ${base}/graphql`))).toBe(true);
    expect(lines.some((line) => line.msg === 'bootstrap credential ready' && line.created === true)).toBe(true);
    expect(
      lines.some((line) => line.msg === 'request' && line.status === 303 && line.requestId && line.durationMs >= 0),
    ).toBe(true);
    expect(lines.at(-1).msg).toBe('stopped');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('starts with `npm start`, which compiles it first, and stops on Ctrl-C', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' }, ['npm', 'start']);
    await waitUntilReady(server);
    expect((await fetch(`${server.base}/v1/users/me`)).status).toBe(401);
    // A terminal's Ctrl-C: SIGINT to npm and the server it started (npm does not pass a SIGTERM of its own on).
    const closed = new Promise((resolve) => server.child.once('close', resolve));
    process.kill(-server.child.pid!, 'SIGINT');
    // Once the server has exited too: it writes to the output npm handed it.
    await closed;
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(lines.at(-1)?.msg, server.output()).toBe('stopped');
    await expect(fetch(`${server.base}/healthz`)).rejects.toThrow();
  });

  it('refuses to start with a clear message for each bad setting', async () => {
    const server = await startServerProcess({
      DATA_DIR: dataDir,
      PORT: 'abc',
      RATE_LIMIT: 'lots',
      DATABASE_URL: 'postgresql://localhost/x',
    });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toMatch(/PORT: /);
    expect(server.output()).toMatch(/RATE_LIMIT: must look like 15\/5s/);
    expect(server.output()).toMatch(/SECRET_KEY: is required when DATABASE_URL is set/);
  });
});
