/**
 * Webhook delivery as it runs in a server: a fan-out loop, woken by this process's commits (and polling for other
 * instances'), at most every `roundEveryMs` while its rounds queue nothing, and a sender that keeps up to
 * `concurrency` claimed deliveries on hand, claiming again as leases end and recording finished attempts in batches,
 * so one slow receiver holds its own deliveries, not a round.
 */
import type { Logger } from 'pino';
import { onLocalCommit } from '../outbox/bus';
import type { FanOutResult } from './fan-out';

export interface DeliverySteps<Claim, Outcome> {
  /** Fans out the next events. */
  fanOut(): Promise<FanOutResult>;
  claim(max: number): Promise<Claim[]>;
  attempt(claim: Claim): Promise<Outcome>;
  record(finished: { delivery: Claim; outcome: Outcome }[]): Promise<unknown>;
}

export interface LoopOptions {
  idleMs: number;
  /** Fan-out rounds start at most this often after one that read events and queued nothing for them. */
  roundEveryMs: number;
  concurrency: number;
  claimBatch: number;
  logger?: Logger;
}

/**
 * A local commit whose events are not readable yet is looked for again after 1 ms, then 2, 4, ... up to 64 ms: they
 * become readable as soon as the transactions older than it end (on PostgreSQL, those of every database on the
 * server), usually within milliseconds, while a long transaction elsewhere should not make this a busy loop.
 */
const unreadRetryMs = (retry: number) => 2 ** Math.min(retry, 6);
/** ...for at most this long; after that the poll finds it. */
const unreadRetryForMs = 2_000;

interface Alarm {
  wait(ms: number): Promise<void>;
  ring(): void;
  /** Forgets a ring nobody waited for: the work about to start covers it. */
  forget(): void;
}

/** A pause that ends after `ms`, or as soon as something rings; a ring while nobody waits ends the next pause at once. */
function createAlarm(): Alarm {
  let ring: (() => void) | null = null;
  let rung = false;
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (rung) {
          rung = false;
          return resolve();
        }
        const timer = setTimeout(() => {
          ring = null;
          resolve();
        }, ms).unref();
        ring = () => {
          clearTimeout(timer);
          ring = null;
          resolve();
        };
      }),
    ring: () => {
      if (ring) ring();
      else rung = true;
    },
    forget: () => {
      rung = false;
    },
  };
}

/** Starts the loops; `stop` stops claiming, lets the attempts in flight finish and records them. */
export function startDeliveryLoops<Claim, Outcome>(steps: DeliverySteps<Claim, Outcome>, options: LoopOptions) {
  const { idleMs, concurrency, roundEveryMs, logger } = options;
  let stopping = false;
  // `stop` rings all three; only stopping ends the wait between fan-out rounds early.
  const alarms = { fanOut: createAlarm(), send: createAlarm(), stop: createAlarm() };
  const inFlight = new Set<Promise<void>>();
  const finished: { delivery: Claim; outcome: Outcome }[] = [];
  let recording: Promise<void> = Promise.resolve();
  const record = () => {
    recording = recording
      .then(async () => {
        const batch = finished.splice(0);
        if (batch.length) await steps.record(batch);
        // Recorded attempts end their leases: their targets may be claimed again.
        if (batch.length) alarms.send.ring();
      })
      // Unrecorded attempts keep their lease and are retried once it ends: at least once, never lost.
      .catch((error) => logger?.warn({ err: error }, 'recording webhook attempts failed'));
    return recording;
  };
  // A local commit whose events are not readable yet (an older transaction of the server still runs) is looked for
  // again shortly rather than at the next poll, for a while (another instance may have fanned it out already).
  let unreadSince: number | null = null;
  let unreadRetries = 0;
  // Under a burst of commits that fire no subscribed target each round takes what came since the last: without a
  // floor between rounds, every few commits would cost a round of three statements.
  let nextRoundAt = 0;
  const fanOutStep = async () => {
    const wait = nextRoundAt - performance.now();
    if (wait > 0) await alarms.stop.wait(wait);
    if (stopping) return false;
    // The round reads every event committed before it: commits announced while it waited need no round of their own.
    alarms.fanOut.forget();
    const startedAt = performance.now();
    const expected = unreadSince;
    unreadSince = null;
    const { read, queued, more } = await steps.fanOut();
    // Only a round that read events and queued nothing for them, a read for no one, spaces the next. A full batch
    // leaves more waiting (a backlog), deliveries have receivers waiting for the next events, and a local commit not
    // readable yet is looked for again below.
    nextRoundAt = read && !queued && !more ? startedAt + roundEveryMs : 0;
    // The sender claims when something was queued, or at its own poll (retries falling due, another instance's queue).
    if (queued) alarms.send.ring();
    if (read) unreadRetries = 0;
    else if (expected !== null && performance.now() - expected < unreadRetryForMs) {
      unreadSince ??= expected;
      nextRoundAt = performance.now() + unreadRetryMs(unreadRetries++);
      return true;
    } else unreadRetries = 0;
    // Less than a whole batch read the log to its end; a commit since has rung the alarm, which ends the next pause.
    return more;
  };
  const sendStep = async () => {
    const free = concurrency - inFlight.size;
    if (free <= 0) {
      await Promise.race(inFlight);
      return true;
    }
    const batch = await steps.claim(Math.min(free, options.claimBatch));
    for (const delivery of batch) {
      const sending: Promise<void> = steps
        .attempt(delivery)
        .then((outcome) => {
          finished.push({ delivery, outcome });
          void record();
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    }
    return batch.length > 0;
  };
  const loop = async (step: () => Promise<boolean>, alarm: Alarm, what: string) => {
    while (!stopping) {
      let busy = false;
      try {
        busy = await step();
      } catch (error) {
        logger?.warn({ err: error }, `webhook ${what} failed`);
      }
      if (!busy && !stopping) await alarm.wait(idleMs);
    }
  };
  const stopListening = onLocalCommit(() => {
    unreadSince ??= performance.now();
    alarms.fanOut.ring();
  });
  const running = Promise.all([loop(fanOutStep, alarms.fanOut, 'fan-out'), loop(sendStep, alarms.send, 'sending')]);
  return {
    async stop() {
      stopping = true;
      for (const alarm of Object.values(alarms)) alarm.ring();
      await running;
      stopListening();
      await Promise.all(inFlight);
      await record();
    },
  };
}
