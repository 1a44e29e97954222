import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Redis } from 'ioredis';
import { breakerOf } from '../redis/breaker';
import { type Database, openedDatabase } from '../db/database';
import type { RealmType } from '../generated/prisma/enums';
import { realmKey } from './realm-key';
import { type EventCursor, endOfStream, readCommittedEvents } from './stream';

/** A committed domain event as subscribers receive it, read from the committed-event log. */
export interface DomainEventMessage {
  id: string;
  /** The event's position in the log, `<txid>:<id>`: the token a subscriber resumes after. */
  cursor: EventCursor;
  type: string;
  realmType: RealmType;
  realmId: number;
  objectId: number;
  actorId: number | null;
  districtId: number | null;
  schoolId: number | null;
  /** The realms that contain the changed object, as `<RealmType>:<id>` (its own realm, building, school, district). */
  ancestors: string[];
  createdAt: string;
}

type Realm = { type: RealmType; id: number };
type Listener = (event: DomainEventMessage) => void;

/** Names this process in its commit announcements, `<token>@<event ids>`, so that it can ignore its own. */
const processToken = randomBytes(6).toString('hex');

/** The channel on which instances tell each other that events were committed (REDIS_URL). */
export const commitsChannel = 'lectern:events-committed';

/**
 * How often the follower reads the log without being told of a commit: the safety net for commits it was not told
 * of (another instance without Redis, a lost Redis message).
 */
const pollMs = 1000;
/** A local commit whose events are not readable yet (an older transaction still runs) is looked for again this soon. */
const unreadRetryMs = 15;
/** ...for at most this long; after that the poll finds it. */
const unreadRetryForMs = 5000;
const batchSize = 500;

const listeners = new Map<string, Set<Listener>>();
let subscriberCount = 0;

interface Follower {
  ready: Promise<void>;
  wake(): void;
  /** The database whose log it reads: a process that opens another one (tests do, file after file) needs a new follower. */
  database: Database;
  /** The cursor of the last event it read; null until it knows where it stands. */
  position: EventCursor | null;
}
let follower: Follower | null = null;

/** Where the log's follower stands, for its lag (src/ops/metrics-probes.ts); null while no subscriber needs one. */
export const followerPosition = (): { database: Database; cursor: EventCursor } | null =>
  follower?.position ? { database: follower.database, cursor: follower.position } : null;
/** Ids of events this process committed that the follower has not read yet, with when they were committed. */
const unread = new Map<string, number>();

function dispatch(events: DomainEventMessage[]) {
  for (const event of events) {
    unread.delete(event.id);
    // A listener of several of the realms (viewerEvents) hears the event once.
    const heard = new Set<Listener>();
    for (const realm of event.ancestors) for (const listener of listeners.get(realm) ?? []) heard.add(listener);
    for (const listener of heard) listener(event);
  }
}

/**
 * One follower of the committed log per process, running while anyone here listens: it reads from where it stands
 * when woken (a local commit, a commit another instance announced over Redis, or the poll) and hands each event to
 * the listeners of every realm that contains it (its `ancestors`), all of them sharing the one event object. It starts at the end of the log.
 */
function startFollower(): Follower {
  const database = openedDatabase();
  let alarm: (() => void) | null = null;
  let rung = false;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (rung) return resolve();
      alarm = resolve;
      timer = setTimeout(resolve, ms).unref();
    }).then(() => {
      clearTimeout(timer);
      alarm = null;
      rung = false;
    });
  let started!: () => void;
  const self: Follower = {
    database,
    position: null,
    ready: new Promise<void>((resolve) => (started = resolve)),
    wake() {
      rung = true;
      alarm?.();
    },
  };
  void (async () => {
    let cursor: EventCursor | null = null;
    // Ends when nobody listens any more, or when another follower took over.
    const done = () => {
      if (subscriberCount > 0 && follower === self) return false;
      if (follower === self) follower = null;
      return true;
    };
    while (cursor === null) {
      try {
        cursor = await endOfStream(database.prisma);
      } catch {
        // The database is away: try again at the poll.
        await sleep(pollMs);
        if (done()) return;
      }
    }
    unread.clear();
    self.position = cursor;
    started();
    for (;;) {
      if (done()) return;
      let read = 0;
      try {
        const page = await readCommittedEvents(cursor, batchSize, undefined, database);
        read = page.events.length;
        cursor = page.cursor!;
        self.position = cursor;
        dispatch(page.events);
      } catch {
        // The database is away: the poll tries again, and subscribers miss nothing, since the cursor stayed.
      }
      if (read === batchSize) continue;
      const now = Date.now();
      for (const [id, at] of unread) if (now - at > unreadRetryForMs) unread.delete(id);
      await sleep(unread.size ? unreadRetryMs : pollMs);
    }
  })();
  return self;
}

/**
 * Hands every committed event the realms contain to `listener` (once, however many of them contain it), from the moment this is called: `ready` resolves once the
 * follower knows where it stands, so an event read by anyone after that reaches the listener too (resume relies on
 * it to hand over from its catch-up without a gap). `stop` ends the listening.
 */
export function listenToRealms(realms: Realm[], listener: Listener): { ready: Promise<void>; stop(): void } {
  const keys = [...new Set(realms.map(realmKey))];
  for (const key of keys) {
    let set = listeners.get(key);
    if (!set) listeners.set(key, (set = new Set()));
    set.add(listener);
  }
  subscriberCount++;
  if (follower?.database !== openedDatabase()) follower = startFollower();
  let stopped = false;
  return {
    ready: follower.ready,
    stop() {
      if (stopped) return;
      stopped = true;
      subscriberCount--;
      for (const key of keys) {
        const set = listeners.get(key);
        set?.delete(listener);
        if (set?.size === 0) listeners.delete(key);
      }
    },
  };
}

/** An event this process committed: its id, and the realms that contain it (its `ancestors`). */
export interface CommitNotice {
  id: string;
  ancestors: readonly string[];
}

let announceToOthers: ((events: readonly CommitNotice[]) => void) | null = null;

/** Whether a listener of this process hears an event filed in any of these realms. */
const heardHere = (realms: readonly string[]) => realms.some((realm) => listeners.has(realm));

/**
 * Commits whose events the follower has not read yet: it reads again shortly until it has them, since an event is
 * readable only once every older transaction has ended (on a shared PostgreSQL server, other databases' too).
 */
function expectEvents(eventIds: readonly string[]) {
  if (!follower || eventIds.length === 0) return;
  const now = Date.now();
  for (const id of eventIds) unread.set(id, now);
  follower.wake();
}

/**
 * With Redis, instances announce their commits to each other, so each follower reads the log at once rather than at
 * its next poll. The subscriber client must be connected before it is handed over.
 */
export function useRedisEventBus(publishClient: Redis, subscribeClient: Redis) {
  // Neither failure needs handling: ioredis resubscribes on reconnect, and a lost announcement only delays delivery
  // until the next poll. An unhandled rejection from a closing connection would end the process.
  subscribeClient.subscribe(commitsChannel).catch(() => undefined);
  subscribeClient.on('message', (channel, message: string) => {
    if (channel !== commitsChannel) return;
    // `<process>@<event ids>@<their realms>`. This process's own announcement comes back after its follower may have
    // read the events already; expecting them again would make it re-read the log every few milliseconds for seconds
    // after each commit. An announcement without realms (from an instance of an earlier version) wakes it whatever
    // its listeners hear.
    const [from, ids, realms] = message.includes('@') ? message.split('@', 3) : [null, message, undefined];
    if (from === processToken) return;
    if (realms !== undefined && !heardHere(realms.split(','))) return;
    expectEvents(ids.split(',').filter((id) => /^\d+$/.test(id)));
  });
  const publisher = breakerOf(publishClient);
  announceToOthers = (events) => {
    const realms = new Set(events.flatMap(({ ancestors }) => ancestors));
    const message = `${processToken}@${events.map(({ id }) => id).join(',')}@${[...realms].join(',')}`;
    // Never awaited, so a write's answer does not wait for Redis; nothing is sent while Redis does not answer.
    void publisher.call((client) => client.publish(commitsChannel, message)).catch(() => undefined);
  };
}

const localCommits = new EventTarget();
setMaxListeners(0, localCommits);

/**
 * Tells the followers of every instance that this process committed these events. A follower reads at once only for
 * an event a listener of its process hears: under a burst of writes nobody there listens to (the credential cache
 * listens to the realms of the users it holds), it would otherwise read the log after every commit, for nothing. It
 * reads the others at its next wake or poll, in order, as ever.
 */
export function announceCommit(events: readonly CommitNotice[]) {
  if (events.length === 0) return;
  expectEvents(events.filter(({ ancestors }) => heardHere(ancestors)).map(({ id }) => id));
  announceToOthers?.(events);
  localCommits.dispatchEvent(new Event('commit'));
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

/** Resolves when the server stops (endSubscriptions): every subscription then ends. */
export const subscriptionsEnd = () => stopped.promise;

/**
 * Ends every subscription, so that server-sent event streams complete and a stopping server is not held open by
 * them. Later subscriptions (a server started again in the same process, as tests do) work as usual.
 */
export function endSubscriptions() {
  stopped.resolve();
  stopped = stopSignal();
}
