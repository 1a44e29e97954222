import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { announceCommit } from '../../src/outbox/bus';
import type { FanOutResult } from '../../src/webhooks/fan-out';
import { startDeliveryLoops } from '../../src/webhooks/runner';

/**
 * The delivery loops over steps that only note when each fan-out round starts. Rounds answer `results` in turn, then
 * one event read and nothing queued each; the sender finds nothing to claim.
 */
function notingRounds(roundEveryMs: number, results: FanOutResult[] = []) {
  const startedAt: number[] = [];
  const loops = startDeliveryLoops(
    {
      fanOut: async () => {
        startedAt.push(performance.now());
        return results.shift() ?? { read: 1, queued: 0, more: false };
      },
      claim: async () => [],
      attempt: async () => undefined,
      record: async () => undefined,
    },
    // No poll within the test: only commits and backlogs start rounds.
    { idleMs: 600_000, roundEveryMs, concurrency: 10, claimBatch: 10 },
  );
  return { startedAt, stop: () => loops.stop() };
}

/** What a write of this process announces when it commits. */
const commit = () => announceCommit([{ id: '1', ancestors: ['GROUP:1'] }]);

describe('fan-out rounds', () => {
  it('start at most every roundEveryMs under a burst of commits, each taking the commits of its wait', async () => {
    const gapMs = 200;
    const rounds = notingRounds(gapMs);
    try {
      // The round at start reads the log at once.
      await expect.poll(() => rounds.startedAt.length).toBe(1);
      // Each commit in its own turn: rounds that answer at once would each be followed by another.
      for (let count = 0; count < 5; count++) {
        commit();
        await nextTurn();
      }
      await expect.poll(() => rounds.startedAt.length).toBe(2);
      // A timer runs on the event loop's clock, read once per turn, so it can fire a few ms early by performance.now().
      expect(rounds.startedAt[1]! - rounds.startedAt[0]!).toBeGreaterThanOrEqual(gapMs - 10);
      // No round follows for the commits announced while the second waited: it read them. Absence takes waiting for:
      // the gap and half of it again.
      await new Promise((resolve) => setTimeout(resolve, gapMs * 1.5));
      expect(rounds.startedAt).toHaveLength(2);
    } finally {
      await rounds.stop();
    }
  });

  it('go one after another while each reads a whole batch (a backlog), however long the gap', async () => {
    const backlog = { read: 500, queued: 0, more: true };
    const rounds = notingRounds(600_000, [backlog, backlog, backlog]);
    try {
      await expect.poll(() => rounds.startedAt.length).toBe(4);
    } finally {
      await rounds.stop();
    }
  });

  const nothingYet = { read: 0, queued: 0, more: false };
  it.each([
    { after: 'queued deliveries', results: [{ read: 1, queued: 1, more: false }], roundsInAll: 2 },
    // The round at start finds nothing, as does the first after the commit; the one after that reads it.
    { after: 'did not find a local commit readable yet', results: [nothingYet, nothingYet], roundsInAll: 3 },
  ])('go at once after a round that $after, however long the gap', async ({ results, roundsInAll }) => {
    const rounds = notingRounds(600_000, results);
    try {
      await expect.poll(() => rounds.startedAt.length).toBe(1);
      commit();
      await expect.poll(() => rounds.startedAt.length).toBe(roundsInAll);
    } finally {
      await rounds.stop();
    }
  });
});
