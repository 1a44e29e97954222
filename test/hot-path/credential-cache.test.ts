import { describe } from 'vitest';
import { useTestServer } from '../support/harness';
import { credentialCacheTests } from './credentials';

// Without Redis: revocations reach the other instance through the committed domain-event log.
const server = useTestServer({ CREDENTIAL_CACHE_MS: '600000' });

describe('credential cache, two instances, no Redis', () => {
  credentialCacheTests(server, null);
});
