import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  migratedDataDir,
  processTestTimeoutMs,
  type ServerProcess,
  startServerProcess,
  waitUntilReady,
} from '../support/process';
import { type PrivateRedis, startPrivateRedis } from '../support/redis';

// Two server processes (PGlite) and a Redis of the test's own: tens of seconds on a shared machine.
vi.setConfig({ testTimeout: processTestTimeoutMs });

const tempDir = mkdtempSync(join(tmpdir(), 'lectern-redis-stall-'));
afterAll(() => rmSync(tempDir, { recursive: true, force: true }));

const consumerKey = 'stall-key';
const consumerSecret = 'stall-secret';
const authorization = () =>
  `OAuth realm="Schoology API", oauth_consumer_key="${consumerKey}", oauth_token="", oauth_nonce="${randomUUID()}", oauth_timestamp="${Math.floor(Date.now() / 1000)}", oauth_signature_method="PLAINTEXT", oauth_version="1.0", oauth_signature="${consumerSecret}%26"`;

/** 50 points per 5 s for the user; the load below spends 30 in a window, and 36 more were sent during the stall. */
const rateLimit = '50/5s';
const requestEveryMs = 333;
const stallMs = 6_000;
/** A stall lasts longer if the requests it must see answered are not yet; it ends by this long whatever happens. */
const stallAtMostMs = 30_000;

interface Sent {
  instance: number;
  sentAt: number;
  answeredAt?: number;
  status?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a stalled Redis (SIGSTOP) under two instances', () => {
  it('costs a request the budget at most, reports degraded, and brings no burst of 429s when it resumes', async () => {
    const redis: PrivateRedis = await startPrivateRedis();
    const servers: ServerProcess[] = [];
    try {
      // Each instance on an embedded database of its own with the same bootstrap credential: its user has the same id
      // in both, so Redis counts one budget for both, as for one user of a scaled-out deployment.
      for (const index of [0, 1]) {
        servers.push(
          await startServerProcess({
            DATA_DIR: migratedDataDir(join(tempDir, String(index))),
            LOG_LEVEL: 'info',
            SEED_DEMO: 'off',
            REDIS_URL: redis.url,
            RATE_LIMIT: rateLimit,
            BOOTSTRAP_CONSUMER_KEY: consumerKey,
            BOOTSTRAP_CONSUMER_SECRET: consumerSecret,
          }),
        );
      }
      await Promise.all(servers.map(waitUntilReady));
      const me = await Promise.all(
        servers.map(async ({ base }) => {
          const response = await fetch(`${base}/v1/users/me`, {
            headers: { authorization: authorization() },
            redirect: 'manual',
          });
          return response.headers.get('location');
        }),
      );
      expect(me[0]!.replace(servers[0]!.base, '')).toBe(me[1]!.replace(servers[1]!.base, ''));

      const sent: Sent[] = [];
      const pending: Promise<void>[] = [];
      const create = (instance: number) => {
        const record: Sent = { instance, sentAt: performance.now() };
        sent.push(record);
        const { base } = servers[instance]!;
        pending.push(
          fetch(`${base}/v1/groups`, {
            method: 'POST',
            headers: { authorization: authorization(), 'content-type': 'application/json' },
            body: JSON.stringify({ title: `stall-${sent.length}` }),
          }).then(async (response) => {
            await response.arrayBuffer();
            Object.assign(record, { status: response.status, answeredAt: performance.now() });
          }),
        );
      };
      // Open-loop load, as clients on their own clocks send it: each instance gets a create every `requestEveryMs`
      // whether or not the earlier ones were answered.
      let loading = true;
      const load = (async () => {
        while (loading) {
          create(0);
          create(1);
          await sleep(requestEveryMs);
        }
      })();
      const readiness = async (base: string) => {
        const response = await fetch(`${base}/readyz`);
        return { body: await response.json(), answeredAt: performance.now() };
      };

      await sleep(2_000);
      redis.freeze();
      const frozenAt = performance.now();
      await sleep(1_000);
      const duringStall = Promise.all(servers.map(({ base }) => readiness(base)));
      // The stall lasts `stallMs`, and until the requests of its first half and the readiness checks are answered.
      await sleep(stallMs - 1_000);
      const firstHalf = sent.filter((record) => record.sentAt >= frozenAt && record.sentAt < frozenAt + stallMs / 2);
      const deadline = frozenAt + stallAtMostMs;
      const checks = await Promise.race([
        duringStall,
        sleep(Math.max(0, deadline - performance.now())).then(() => null),
      ]);
      while (firstHalf.some((record) => record.answeredAt === undefined) && performance.now() < deadline)
        await sleep(50);
      redis.resume();
      const resumedAt = performance.now();

      // Nothing waited for the stall: each request of its first half and each readiness check came back while Redis
      // was still frozen, and the instances said they were degraded.
      expect(firstHalf.length).toBeGreaterThan(10);
      expect(firstHalf.filter((record) => !(record.answeredAt! < resumedAt))).toEqual([]);
      expect(checks?.map(({ body }) => body)).toEqual([
        { status: 'degraded', redis: 'unreachable' },
        { status: 'degraded', redis: 'unreachable' },
      ]);
      for (const { base } of servers)
        await expect.poll(async () => (await readiness(base)).body).toEqual({ status: 'ready' });

      // More than a window of load after it: the creates sent during the stall are not counted again in a burst.
      await sleep(7_000);
      loading = false;
      await load;
      await Promise.all(pending);
      const statuses = new Map<number, number>();
      for (const record of sent) statuses.set(record.status!, (statuses.get(record.status!) ?? 0) + 1);
      expect(Object.fromEntries(statuses)).toEqual({ 201: sent.length });

      await Promise.all(
        servers.map(async (server) => {
          server.child.kill('SIGTERM');
          expect(await server.exited).toBe(0);
          const messages = server
            .output()
            .trim()
            .split('\n')
            .map((line) => (JSON.parse(line) as { msg: string }).msg);
          // One warning for the outage and one notice at its end, whatever the number of requests meanwhile.
          expect(messages.filter((message) => message.startsWith('Redis does not answer'))).toHaveLength(1);
          expect(messages.filter((message) => message.startsWith('Redis answers again'))).toHaveLength(1);
        }),
      );
    } finally {
      redis.resume();
      for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
      await Promise.all(servers.map((server) => server.exited));
      await redis.stop();
    }
  });
});
