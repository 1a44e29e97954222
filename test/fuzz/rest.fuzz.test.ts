/**
 * Bounded property-based fuzzing of every /v1 write route, in JSON and in XML, with bodies generated from the route's
 * wire schema (test/support/arbitraries.ts). No answer may be a 5xx, and every answer must keep its wire contract (the
 * harness checks each /v1 response). `npm run fuzz` is the long run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema';
import { restRoutes } from '../../src/rest/routes';
import { useTestServer } from '../support/harness';
import { Stages } from './stage';
import { Tally, restTargets } from './targets';

// Revoking its own token is fair game for a fuzzed request; the 401s that follow must not block the address.
const server = useTestServer({ AUTH_FAILURES_PER_ADDRESS: 'off', AUTH_FAILURES_PER_CONSUMER_KEY: 'off' });
const tally = new Tally();
const runsPerTarget = 20;
// A body's notation is decoded before anything reaches the database, so XML finds nothing on PostgreSQL that it does
// not find on PGlite: the PostgreSQL pass fuzzes JSON bodies only, and the suite spends its time on what differs.
const notations = process.env.TEST_DATABASE_URL ? 1 : 2;

describe('fuzzed /v1 write bodies', () => {
  const targets = restTargets(restRoutes, schema, server).filter(
    (target) => notations === 2 || !target.name.endsWith('(xml)'),
  );

  it('covers every write route in each notation fuzzed, and raw uploads once', () => {
    const writeRoutes = restRoutes.filter((route) => route.method === 'POST' || route.method === 'PUT');
    const rawRoutes = writeRoutes.filter((route) => route.rawBody);
    expect(targets.map((target) => target.name)).toHaveLength(
      (writeRoutes.length - rawRoutes.length) * notations + rawRoutes.length,
    );
  });

  it.each(targets.map((target) => [target.name, target]))('%s: no 5xx', async (name, target) => {
    await fc.assert(target.property(new Stages(server), tally), { seed: 6, numRuns: runsPerTarget });
    // Mostly valid bodies: besides the refusals (permissions, unknown ids, hostile values) some succeed.
    expect(tally.count(name, 200, 300), JSON.stringify([...tally.statuses.get(name)!])).toBeGreaterThan(0);
  });
});
