/**
 * Webhook delivery as it runs in a server: a fan-out loop, woken by this process's commits (and polling for other
 * instances'), and a sender that keeps up to `concurrency` attempts in flight, claiming as slots free up and recording
 * finished attempts in batches, so one slow receiver holds its slots, not a round.
 */
import type { Logger } from 'pino';
import { onLocalCommit } from '../bus';

export interface DeliverySteps<Claim, Outcome> {
  /** Fans out the next events; the number read. */
  fanOut(): Promise<number>;
  claim(max: number): Promise<Claim[]>;
  attempt(claim: Claim): Promise<Outcome>;
  record(finished: { delivery: Claim; outcome: Outcome }[]): Promise<unknown>;
}

export interface LoopOptions {
  idleMs: number;
  concurrency: number;
  claimBatch: number;
  logger?: Logger;
}

interface Alarm {
  wait(ms: number): Promise<void>;
  ring(): void;
}

/** A pause that ends after `ms`, or as soon as something rings. */
function createAlarm(): Alarm {
  let ring: (() => void) | null = null;
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        ring = resolve;
        setTimeout(resolve, ms).unref();
      }),
    ring: () => ring?.(),
  };
}

/** Starts the loops; `stop` stops claiming, lets the attempts in flight finish and records them. */
export function startDeliveryLoops<Claim, Outcome>(steps: DeliverySteps<Claim, Outcome>, options: LoopOptions) {
  const { idleMs, concurrency, logger } = options;
  let stopping = false;
  const alarms = { fanOut: createAlarm(), send: createAlarm() };
  const inFlight = new Set<Promise<void>>();
  const finished: { delivery: Claim; outcome: Outcome }[] = [];
  let recording: Promise<void> = Promise.resolve();
  const record = () => {
    recording = recording
      .then(async () => {
        const batch = finished.splice(0);
        if (batch.length) await steps.record(batch);
      })
      // Unrecorded attempts keep their lease and are retried once it ends: at least once, never lost.
      .catch((error) => logger?.warn({ err: error }, 'recording webhook attempts failed'));
    return recording;
  };
  // A local commit whose events are not readable yet (an older transaction of the server still runs) is looked for
  // again shortly rather than at the next poll.
  let commitUnread = false;
  const fanOutStep = async () => {
    const expected = commitUnread;
    commitUnread = false;
    const read = await steps.fanOut();
    if (read) alarms.send.ring();
    else if (expected) {
      commitUnread = true;
      await new Promise((resolve) => setTimeout(resolve, 50).unref());
      return true;
    }
    return read > 0;
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
        .finally(() => {
          inFlight.delete(sending);
          alarms.send.ring();
        });
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
    commitUnread = true;
    alarms.fanOut.ring();
  });
  const running = Promise.all([loop(fanOutStep, alarms.fanOut, 'fan-out'), loop(sendStep, alarms.send, 'sending')]);
  return {
    async stop() {
      stopping = true;
      alarms.fanOut.ring();
      alarms.send.ring();
      await running;
      stopListening();
      await Promise.all(inFlight);
      await record();
    },
  };
}
