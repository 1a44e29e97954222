/**
 * Bounded property-based fuzzing of GraphQL: every mutation, and every query field with arguments, called with
 * variables generated from its argument types (test/support/arbitraries.ts) by the actors of a stage. No answer may be
 * a 5xx or carry an internal (masked) error. `npm run fuzz` is the long run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema';
import { useTestServer } from '../support/harness';
import { Stages } from './stage';
import { Tally, graphqlTargets } from './targets';

// Revoking its own token is fair game for a fuzzed request; the 401s that follow must not block the address.
const server = useTestServer({ AUTH_FAILURES_PER_ADDRESS: 'off', AUTH_FAILURES_PER_CONSUMER_KEY: 'off' });
const tally = new Tally();
const runsPerTarget = 20;

describe('fuzzed GraphQL variables', () => {
  const targets = graphqlTargets(schema, server);

  it('covers every mutation', () => {
    const mutations = Object.keys(schema.getMutationType()!.getFields()).map((name) => `mutation ${name}`);
    expect(targets.map((target) => target.name)).toEqual(expect.arrayContaining(mutations));
  });

  // A stage takes longer to build than its target's requests take to run. Queries change nothing, so they all share
  // one; each mutation gets a fresh one, as it may delete or use up what the next would need.
  const queryStages = new Stages(server, Number.POSITIVE_INFINITY);
  const stagesFor = (name: string) => (name.startsWith('query ') ? queryStages : new Stages(server));

  it.each(targets.map((target) => [target.name, target]))('%s: no 5xx, no internal error', async (name, target) => {
    await fc.assert(target.property(stagesFor(name), tally), { seed: 6, numRuns: runsPerTarget });
    // Some requests get past variable coercion and limits to run (a 200, with data or a typed error).
    expect(tally.count(name, 200, 300), JSON.stringify([...tally.statuses.get(name)!])).toBeGreaterThan(0);
  });
});
