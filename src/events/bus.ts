import { setMaxListeners } from 'node:events';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { type PubSub, Repeater, createPubSub } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { RealmType } from '../generated/prisma/enums';

/** A committed domain event as subscribers receive it (JSON-safe, so it can cross Redis). */
export interface DomainEventMessage {
  id: string;
  type: string;
  realmType: RealmType;
  realmId: number;
  objectId: number;
  actorId: number | null;
  districtId: number | null;
  schoolId: number | null;
  createdAt: string;
}

type Topics = { 'realm-event': [realmKey: string, event: DomainEventMessage] };

const realmKey = (realm: { type: RealmType; id: number }) => `${realm.type}:${realm.id}`;

/** Every subscriber of a realm listens on its topic, so a busy group has many listeners: not a leak to warn about. */
function inProcessTarget() {
  const target = new EventTarget();
  setMaxListeners(0, target);
  return target;
}

let bus: PubSub<Topics> = createPubSub<Topics>({ eventTarget: inProcessTarget() });

/**
 * Carries committed events to GraphQL subscribers. In-process by default; with Redis every instance of a scaled-out
 * deployment hears events committed by the others. The clients must be connected before they are handed over:
 * a subscriber client that is still connecting loses the first events.
 */
export function useRedisEventBus(publishClient: Redis, subscribeClient: Redis) {
  // The event target waits for neither (un)subscribing nor publishing: one that meets a closing connection (at
  // shutdown, or while Redis is away) would be an unhandled rejection, which ends the process. Failures need no
  // handling here: ioredis resubscribes on reconnect, and a live event missed is what Redis pub/sub promises anyway.
  const subscriber = {
    on: (event: 'message', listener: (channel: string, message: string) => void) => subscribeClient.on(event, listener),
    subscribe: (channel: string) => subscribeClient.subscribe(channel).catch(() => undefined),
    unsubscribe: (channel: string) => subscribeClient.unsubscribe(channel).catch(() => undefined),
  };
  const publisher = { publish: (channel: string, message: string) => publishClient.publish(channel, message).catch(() => undefined) };
  const eventTarget = createRedisEventTarget({ publishClient: publisher as unknown as Redis, subscribeClient: subscriber as unknown as Redis });
  bus = createPubSub<Topics>({ eventTarget });
}

const localCommits = new EventTarget();

export function publishEvents(events: readonly DomainEventMessage[]) {
  for (const event of events) bus.publish('realm-event', realmKey({ type: event.realmType, id: event.realmId }), event);
  if (events.length) localCommits.dispatchEvent(new Event('commit'));
}

/** Calls `listener` whenever this process commits domain events (webhook delivery wakes on it); returns the unsubscribe. */
export function onLocalCommit(listener: () => void): () => void {
  localCommits.addEventListener('commit', listener);
  return () => localCommits.removeEventListener('commit', listener);
}

function stopSignal() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
let stopped = stopSignal();

/** Follows a realm's events until the subscriber leaves or the server stops. */
export function subscribeToRealm(realm: { type: RealmType; id: number }) {
  return Repeater.race([bus.subscribe('realm-event', realmKey(realm)), stopped.promise]);
}

/**
 * Ends every subscription, so that server-sent event streams complete and a stopping server is not held open by
 * them. Later subscriptions (a server started again in the same process, as tests do) work as usual.
 */
export function endSubscriptions() {
  stopped.resolve();
  stopped = stopSignal();
}
