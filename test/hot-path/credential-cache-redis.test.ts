import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRedisEventBus } from '../../src/outbox/bus';
import { db } from '../../src/db/database';
import { useTestServer } from '../support/harness';
import { credentialCacheTests } from './credentials';

// With Redis (REDIS_URL): commits are announced over Redis pub/sub, and OAuth nonces are kept in Redis.
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });
const commands = new Redis(redisUrl, { lazyConnect: true });
const subscriber = new Redis(redisUrl, { lazyConnect: true });

beforeAll(async () => {
  await Promise.all([commands.connect(), subscriber.connect()]);
  useRedisEventBus(commands, subscriber);
});
afterAll(() => Promise.all([commands.quit(), subscriber.quit()]));

describe('credential cache, two instances, Redis', () => {
  credentialCacheTests(server, commands);

  it('keeps OAuth nonces in Redis rather than the database', async () => {
    expect(await db().oAuthNonce.count()).toBe(0);
    expect(await commands.keys('lectern-nonce:*')).not.toHaveLength(0);
  });
});
