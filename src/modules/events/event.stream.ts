import type { GraphQLError } from 'graphql';
import { Repeater } from 'graphql-yoga';
import { realmVerdict } from '../../auth/policy';
import { type RealmFacts, type RealmRef, accessTo, knownRealm, realmNoun } from '../../auth/realms';
import { type Viewer, currentViewer } from '../../auth/viewer';
import { httpError } from '../../core/errors';
import { type DomainEventMessage, subscribeToRealm } from '../../events/bus';
import { eventKind } from '../../events/catalogue';
import { credentialKey, subscriptionActivity, takeSubscriptionSlot, tooManySubscriptions } from './event.quota';

/** What a realm subscription carries: a committed event to send, or the error it ends with. */
export type Delivery = { event: DomainEventMessage } | { end: GraphQLError };

/** The code of the error that ends every subscription of a revoked or expired credential; graphql-ws closes the socket. */
export const ACCESS_REVOKED = 'ACCESS_REVOKED';

const credentialRevoked = () => httpError(401, ACCESS_REVOKED, 'Access revoked: the credential was revoked or has expired');
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
    if (!shared) byRealm.set(key, accessTo(viewer, realm).then((result) => result?.facts ?? null));
    else {
      const facts = await shared;
      if (!facts) return false;
      knownRealm(viewer, realm, facts);
    }
  }
  return (await realmVerdict(viewer, realm, 'read')) === 'allow';
}

/**
 * Checks the subscriber's access as it is now, never as the subscription's own (memoising) viewer remembers it:
 * the credential and its user in one statement, then the realm's access rule with fresh memberships or enrollments
 * (one more statement for a group or section). The error to end with, or the credential's expiry.
 */
async function recheck(
  subscriber: Viewer,
  realm: RealmRef,
  event: DomainEventMessage | null,
): Promise<{ end: GraphQLError } | { expiresAt: Date | null; viewer: Viewer }> {
  const current = await currentViewer(subscriber.credential);
  if (!current) return { end: credentialRevoked() };
  if (!(await mayRead(current.viewer, realm, event))) return { end: realmAccessLost(realm) };
  return { expiresAt: current.expiresAt, viewer: current.viewer };
}

/** Whether the event's audience includes the subscriber: only a realm's administrators hear what is addressed to one person. */
async function hears(viewer: Viewer, realm: RealmRef, event: DomainEventMessage): Promise<boolean> {
  if (eventKind(event.type)?.audience !== 'administrators') return true;
  return (await realmVerdict(viewer, realm, 'administer')) === 'allow';
}

const isIn = (event: DomainEventMessage, realm: RealmRef) => event.realmType === realm.type && event.realmId === realm.id;

/**
 * A realm's committed events for one subscriber, each sent only after the subscriber's current access allowed it.
 * The subscription also hears the subscriber's own user realm, where revoking a credential is recorded, so a
 * revocation on any instance (the bus carries it) ends it at once; a bearer token's expiry ends it by a timer; an
 * event the subscriber may no longer read ends it instead of being sent. Each end carries its reason as an error.
 */
export function followRealm(subscriber: Viewer, realm: RealmRef): Repeater<Delivery> {
  return new Repeater<Delivery>(async (push, stop) => {
    const slot = takeSubscriptionSlot(subscriber.credential);
    if (!slot) {
      await push({ end: tooManySubscriptions() });
      stop();
      return;
    }
    const ownRealm = { type: 'USER' as const, id: subscriber.id };
    const ownRealmFollowed = realm.type === ownRealm.type && realm.id === ownRealm.id;
    const events = Repeater.merge(ownRealmFollowed ? [subscribeToRealm(realm)] : [subscribeToRealm(realm), subscribeToRealm(ownRealm)]);
    let expiry: NodeJS.Timeout | undefined;
    void stop.then(() => {
      clearTimeout(expiry);
      slot.release();
      void events.return();
    });

    /** The subscriber as they are now, while the subscription goes on; when not, it has ended with its reason. */
    const stillAllowed = async (event: DomainEventMessage | null) => {
      const verdict = await recheck(subscriber, realm, event);
      if ('end' in verdict) {
        await push({ end: verdict.end });
        stop();
        return null;
      }
      clearTimeout(expiry);
      if (verdict.expiresAt) {
        expiry = setTimeout(() => void stillAllowed(null), Math.min(verdict.expiresAt.getTime() - Date.now(), longestTimer));
        expiry.unref();
      }
      return verdict.viewer;
    };

    // Listen first, then check: a revocation committed in between is heard rather than missed.
    let next = events.next();
    if (!(await stillAllowed(null))) return;
    subscriptionActivity.emit('listening', credentialKey(subscriber.credential));
    for (;;) {
      const received = await next;
      if (received.done) break;
      const current = await stillAllowed(received.value);
      if (!current) return;
      if (isIn(received.value, realm) && (await hears(current, realm, received.value))) await push({ event: received.value });
      next = events.next();
    }
    stop();
  });
}
