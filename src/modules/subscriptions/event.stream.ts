import type { GraphQLError } from 'graphql';
import { Repeater } from 'graphql-yoga';
import { realmVerdict } from '../../auth/policy';
import { type RealmFacts, type RealmRef, accessTo, knownRealm, realmNoun } from '../../auth/realms';
import { type Credential, type CurrentViewer, Viewer, currentViewer, currentViewers } from '../../auth/viewer';
import { httpError } from '../../core/errors';
import { db } from '../../db/database';
import { type DomainEventMessage, listenToRealms, subscriptionsEnd } from '../../outbox/bus';
import { eventKind } from '../../outbox/catalogue';
import { realmKey } from '../../outbox/realm-key';
import { type EventCursor, isAfter, readCommittedEvents } from '../../outbox/stream';
import { preloadObjects } from './event.object';
import { credentialKey, subscriptionActivity, takeSubscriptionSlot, tooManySubscriptions } from './event.quota';

/**
 * What a subscription carries: a committed event to send with the subscriber as they are now (whose access the
 * event's object and its fields are resolved with), or the error it ends with.
 */
export type Delivery = { event: DomainEventMessage; viewer: Viewer } | { end: GraphQLError };

/**
 * What a subscription follows: one realm and every realm inside it (realmEvents), or everything the viewer may read
 * in their district (viewerEvents).
 */
export type Followed = { realm: RealmRef } | { viewerRealms: RealmRef[] };

/** The code of the error that ends every subscription of a revoked or expired credential; graphql-ws closes the socket. */
export const ACCESS_REVOKED = 'ACCESS_REVOKED';

const credentialRevoked = () =>
  httpError(401, ACCESS_REVOKED, 'Access revoked: the credential was revoked or has expired');
const realmAccessLost = (realm: RealmRef) =>
  httpError(403, 'FORBIDDEN', `Access revoked: you may no longer read this ${realmNoun(realm.type)}`);

// setTimeout holds at most 2^31 - 1 ms (about 24.8 days); a later expiry is re-armed when this delay passes.
const longestTimer = 2 ** 31 - 1;

/**
 * The realm's facts as read for one published event, shared by all its subscribers here: the bus hands each of them
 * the same event object, so a group with many subscribers is read once per event, not once per subscriber.
 */
const factsAtEvent = new WeakMap<DomainEventMessage, Map<string, Promise<RealmFacts | null>>>();

async function mayRead(viewer: Viewer, realm: RealmRef, event: DomainEventMessage | null): Promise<boolean> {
  if (event) {
    let byRealm = factsAtEvent.get(event);
    if (!byRealm) factsAtEvent.set(event, (byRealm = new Map()));
    const key = `${realm.type}:${realm.id}`;
    const shared = byRealm.get(key);
    if (!shared) {
      const facts = Promise.resolve(accessTo(viewer, realm)).then((result) => result?.facts ?? null);
      // This subscriber learns of a failed read from its own verdict below; the others from awaiting it. Without one
      // of them, a read failing while the database is away would be an unhandled rejection, which ends the process.
      facts.catch(() => {});
      byRealm.set(key, facts);
    } else {
      const facts = await shared;
      if (!facts) return false;
      knownRealm(viewer, realm, facts);
    }
  }
  return (await realmVerdict(viewer, realm, 'read')) === 'allow';
}

/** The subscribers of a realm re-checked for one event, gathered over one turn of the event loop. */
interface CheckBatch {
  credentials: Credential[];
  started: boolean;
  found: Promise<Map<Credential, CurrentViewer | null>>;
}
const checksAtEvent = new WeakMap<DomainEventMessage, CheckBatch>();

/** The subscribers' current viewers; for a group, with their membership of it, in one more statement for them all. */
async function loadCurrentViewers(credentials: Credential[], realm: RealmRef) {
  const found = await currentViewers(credentials);
  if (realm.type === 'GROUP') {
    const viewers = [...found.values()].filter((current) => current !== null);
    const rows = await db().groupMembership.findMany({
      where: { groupId: realm.id, userId: { in: [...new Set(viewers.map(({ viewer }) => viewer.id))] } },
      select: { userId: true, admin: true },
    });
    const admin = new Map(rows.map((row) => [row.userId, row.admin]));
    for (const { viewer } of viewers) {
      const role = admin.get(viewer.id);
      viewer.useGroupMemberships(role === undefined ? new Map() : new Map([[realm.id, role]]));
    }
  }
  return found;
}

/**
 * The subscriber's viewer as the database has it now. For an event, every subscriber here re-checked for it in the
 * same turn of the event loop is looked up together: a group with 10,000 subscribers costs a few statements per
 * event, not two per subscriber.
 */
function freshViewer(subscriber: Viewer, event: DomainEventMessage | null): Promise<CurrentViewer | null> {
  if (!event) return currentViewer(subscriber.credential);
  let batch = checksAtEvent.get(event);
  if (!batch || batch.started) {
    const credentials: Credential[] = [];
    const gathering: CheckBatch = {
      credentials,
      started: false,
      found: new Promise((resolve, reject) =>
        setImmediate(() => {
          gathering.started = true;
          // The realm whose access needs memberships is the event's own: a group's subscribers hear only the group's
          // events (and their own realm's), a school's or district's the group's too.
          loadCurrentViewers(credentials, realmOf(event)).then(resolve, reject);
        }),
      ),
    };
    batch = gathering;
    checksAtEvent.set(event, batch);
  }
  batch.credentials.push(subscriber.credential);
  return batch.found.then((found) => found.get(subscriber.credential) ?? null);
}

/**
 * Checks the subscriber's access as it is now, never as the subscription's own (memoising) viewer remembers it:
 * the credential and its user, then the realm's access rule with fresh memberships or enrollments (for an event,
 * looked up with the other subscribers', freshViewer). The error to end with, or the credential's expiry.
 */
async function recheck(
  subscriber: Viewer,
  followed: Followed,
  event: DomainEventMessage | null,
): Promise<{ end: GraphQLError } | { expiresAt: Date | null; viewer: Viewer }> {
  const current = await freshViewer(subscriber, event);
  if (!current) return { end: credentialRevoked() };
  if ('realm' in followed && !(await mayRead(current.viewer, followed.realm, event)))
    return { end: realmAccessLost(followed.realm) };
  return { expiresAt: current.expiresAt, viewer: current.viewer };
}

const realmOf = (event: DomainEventMessage): RealmRef => ({ type: event.realmType, id: event.realmId });

/**
 * Whether the subscriber may hear of the event: they may read the realm it is filed in (a school's subscriber hears of
 * a group of the school only if they may read the group), and, for events addressed to one person, administer it.
 */
async function hears(viewer: Viewer, event: DomainEventMessage, followed: Followed): Promise<boolean> {
  const realm = realmOf(event);
  const followedItself = 'realm' in followed && realm.type === followed.realm.type && realm.id === followed.realm.id;
  // The followed realm's own read access was just checked for this event.
  if (!followedItself && !(await mayRead(viewer, realm, event))) {
    if (!(await realmVanished(event, realm))) return false;
    // A deleted realm (the group of group.delete) has no rule left: its events reach who administers a realm that
    // contained it (the school's or the district's administrators, who saw it whatever its privacy).
    return administersContainer(viewer, event);
  }
  if (eventKind(event.type)?.audience !== 'administrators') return true;
  return (await realmVerdict(viewer, realm, 'administer')) === 'allow';
}

/** Whether the realm was found missing when read for this event (mayRead read it first, for all subscribers). */
async function realmVanished(event: DomainEventMessage, realm: RealmRef): Promise<boolean> {
  const facts = factsAtEvent.get(event)?.get(`${realm.type}:${realm.id}`);
  return facts !== undefined && (await facts) === null;
}

async function administersContainer(viewer: Viewer, event: DomainEventMessage): Promise<boolean> {
  const own = realmKey(realmOf(event));
  for (const key of event.ancestors) {
    if (key === own) continue;
    const [type, id] = key.split(':') as [RealmRef['type'], string];
    if ((await realmVerdict(viewer, { type, id: Number(id) }, 'administer')) === 'allow') return true;
  }
  return false;
}

/** The realms whose subscribers hear an event: `domain_events.ancestors`. */
const followedRealms = (followed: Followed): RealmRef[] =>
  'realm' in followed ? [followed.realm] : followed.viewerRealms;

const contains = (realmKeys: string[], event: DomainEventMessage) =>
  realmKeys.some((key) => event.ancestors.includes(key));

/**
 * The subscriber whose access the event's object and its fields are resolved with: a fresh one per event, since the
 * re-checked viewer may know only the event's group among the subscriber's groups. It starts with the access to the
 * event's realm just checked, so an object that is that realm (the group of group.update) costs no statement more.
 */
function payloadViewer(current: Viewer, event: DomainEventMessage): Viewer {
  const viewer = new Viewer(current.user, current.credential);
  const realm = realmOf(event);
  void viewer.memo(`realm:${realm.type}:${realm.id}`, () => accessTo(current, realm));
  return viewer;
}

/** Events a resuming subscriber catches up on per read of the log; its access is checked once per page. */
const catchUpPage = 100;

/**
 * Live events a subscription may hold for a client that does not take them (a stalled reader, a long catch-up under
 * heavy traffic). Beyond it the subscription ends with TOO_FAR_BEHIND rather than holding memory without bound; the
 * client resumes from the last event it received and misses nothing.
 */
export const backlogLimit = 1000;

const tooFarBehind = () =>
  httpError(
    503,
    'TOO_FAR_BEHIND',
    `This subscription fell more than ${backlogLimit} events behind: subscribe again with \`after\` (or Last-Event-ID) set to the cursor of the last event received`,
  );

/**
 * Events handed to one subscription as the log follower reads them, kept until the subscription takes them (a
 * subscriber catching up falls behind the live events for a while; Repeater's own queue would refuse that many).
 */
function inbox() {
  const queued: DomainEventMessage[] = [];
  let head = 0;
  let wake: (() => void) | null = null;
  let closed = false;
  return {
    /** Set once more than backlogLimit events waited: the inbox then takes no more and ends. */
    overflowed: false,
    add(event: DomainEventMessage) {
      if (this.overflowed) return;
      if (queued.length - head >= backlogLimit) {
        this.overflowed = true;
        queued.length = 0;
        head = 0;
      } else queued.push(event);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
    /** The next event, or null once closed or overflowed. */
    async take(): Promise<DomainEventMessage | null> {
      while (head === queued.length) {
        if (closed || this.overflowed) return null;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const event = queued[head++]!;
      if (head === queued.length) {
        queued.length = 0;
        head = 0;
      }
      return event;
    },
  };
}

/**
 * The committed events a realm contains (its own and those of the realms inside it; for viewerEvents, the viewer's
 * district's) for one subscriber, each sent only after the subscriber's current access allowed it (hears).
 * The subscription also hears the subscriber's own user realm, where revoking a credential is recorded, so a
 * revocation on any instance ends it as soon as the log is read there; a bearer token's expiry ends it by a timer; an
 * event the subscriber may no longer read ends it instead of being sent. Each end carries its reason as an error.
 *
 * With `after` (a position in the log, checked by the caller), the subscriber first catches up on the realm's events
 * after it, read from the log with the same access rules, then goes on with live ones. It listens before catching
 * up, and drops the live events the catch-up already sent (at or before the last position it read): no gap, no
 * duplicate.
 */
export function followRealm(
  subscriber: Viewer,
  followed: Followed,
  after: EventCursor | null = null,
): Repeater<Delivery> {
  const realms = followedRealms(followed);
  const keys = realms.map(realmKey);
  return new Repeater<Delivery>(async (push, stop) => {
    const slot = takeSubscriptionSlot(subscriber.credential);
    if (!slot) {
      await push({ end: tooManySubscriptions() });
      stop();
      return;
    }
    const ownRealm = { type: 'USER' as const, id: subscriber.id };
    const events = inbox();
    const listening = listenToRealms([...realms, ownRealm], (event) => events.add(event));
    let ended = false;
    let expiry: NodeJS.Timeout | undefined;
    void Promise.race([stop, subscriptionsEnd()]).then(() => {
      ended = true;
      clearTimeout(expiry);
      slot.release();
      listening.stop();
      events.close();
      stop();
    });

    /** The subscriber as they are now, while the subscription goes on; when not, it has ended with its reason. */
    const stillAllowed = async (event: DomainEventMessage | null) => {
      const verdict = await recheck(subscriber, followed, event);
      if ('end' in verdict) {
        await push({ end: verdict.end });
        stop();
        return null;
      }
      clearTimeout(expiry);
      if (verdict.expiresAt) {
        expiry = setTimeout(
          () => void stillAllowed(null),
          Math.min(verdict.expiresAt.getTime() - Date.now(), longestTimer),
        );
        expiry.unref();
      }
      return verdict.viewer;
    };

    // Listen first, then check: a revocation committed in between is heard rather than missed.
    await listening.ready;
    if (!(await stillAllowed(null))) return;
    subscriptionActivity.emit('listening', credentialKey(subscriber.credential));
    let handedOver = after;
    if (after) {
      for (;;) {
        const page = await readCommittedEvents(handedOver, catchUpPage, realms);
        if (ended || page.events.length === 0) break;
        // Access as it is now governs missed events exactly as live ones: one check covers the followed realm.
        const current = await stillAllowed(null);
        if (!current) return;
        preloadObjects(page.events);
        for (const event of page.events) {
          if (await hears(current, event, followed)) await push({ event, viewer: payloadViewer(current, event) });
          if (ended) return;
        }
        handedOver = page.cursor;
      }
    }
    for (;;) {
      const received = await events.take();
      if (!received) {
        if (events.overflowed && !ended) await push({ end: tooFarBehind() });
        break;
      }
      // Only the followed realms' events: the own realm's are never caught up on, and a revocation among them must end this.
      const inFollowed = contains(keys, received);
      if (handedOver && inFollowed && !isAfter(received.cursor, handedOver)) continue;
      const current = await stillAllowed(received);
      if (!current) return;
      if (inFollowed && (await hears(current, received, followed)))
        await push({ event: received, viewer: payloadViewer(current, received) });
    }
    stop();
  });
}
