import { z } from 'zod';
import { authorize, realmFactsFor } from '../../auth/policy';
import { type RealmFacts, type RealmRef, findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { ConflictError, NotFoundError } from '../../core/errors';
import { conflictOnUnique } from '../../db/unique';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { paged } from '../../graphql/paging';
import { membershipEvents } from '../groups/group-membership.service';
import { rosterEvents } from '../roster/roster.service';
import { addressedListWhere, type CreatedAfter } from '../users/addressed';
import { userPolicy } from '../users/user.policy';
import { invitePolicy } from './invite.policy';
import { inviteSchema } from './invite.validation';

type InviteQuery = { select?: Prisma.InviteSelect; include?: Prisma.InviteInclude };
type InviteRealm = 'GROUP' | 'SECTION';
type Action = 'ACCEPT' | 'DENY';

const inviteEvent = (type: `invite.${string}`, description: string) =>
  defineEvent(type, {
    object: 'Invite',
    realms: ['GROUP', 'SECTION'],
    description,
    data: z.object({ userId: z.number() }),
    // Between the realm's administrators and the invitee: members do not hear who is invited.
    audience: 'administrators',
  });
export const inviteEvents = {
  create: inviteEvent('invite.create', 'A user was invited to join a group or course section.'),
  accept: inviteEvent('invite.accept', 'An invite was accepted: the user joined the group or section.'),
  deny: inviteEvent('invite.deny', 'An invite was denied.'),
};

/** The column that names an invite's group or section. */
const realmColumn = { GROUP: 'groupId', SECTION: 'sectionId' } as const;

async function isMember(realm: RealmRef, userId: number): Promise<boolean> {
  const found =
    realm.type === 'GROUP'
      ? await db().groupMembership.findUnique({
          where: { groupId_userId: { groupId: realm.id, userId } },
          select: { id: true },
        })
      : await db().enrollment.findUnique({
          where: { sectionId_userId: { sectionId: realm.id, userId } },
          select: { id: true },
        });
  return found !== null;
}

export async function createInvite(viewer: Viewer, realm: RealmRef, userId: number, query: InviteQuery) {
  const facts = await realmFactsFor(viewer, realm, 'visible');
  await authorize(viewer, invitePolicy, 'create', realm, realm.id);
  const { type } = validate(inviteSchema, { realm: { type: realm.type } }).realm;
  await authorize(viewer, userPolicy, 'read', userId, userId);
  if (await isMember(realm, userId))
    throw new ConflictError(`The user is already a member of this ${realm.type.toLowerCase()}`, 'userId');
  return writeTransaction(async (tx) => {
    const invite = await tx.invite.create({
      ...query,
      data: { userId, [realmColumn[type]]: realm.id, inviterId: viewer.id },
    });
    await recordEvent(tx, inviteEvents.create, {
      realm,
      objectId: invite.id,
      actorId: viewer.id,
      scope: facts,
      data: { userId },
    });
    return invite;
  }).catch(conflictOnUnique('The user already has a pending invite to this realm', 'userId'));
}

/** The pending invites of a user to one kind of realm: null when the user is hidden, a 403 for others who may not read them. */
export async function pendingInvitesWhere(
  viewer: Viewer,
  userId: number,
  realm: InviteRealm,
  since: CreatedAfter,
): Promise<Prisma.InviteWhereInput | null> {
  const addressed = await addressedListWhere(viewer, invitePolicy, userId, since);
  return addressed && { ...addressed, [realmColumn[realm]]: { not: null } };
}

/** Pending invites of a user, oldest first: null when the user is hidden, a 403 for others who may not read them. */
export async function pendingInvites(
  viewer: Viewer,
  userId: number,
  realm: InviteRealm,
  since: CreatedAfter,
  page: { start?: number | null; limit?: number | null },
) {
  const where = await pendingInvitesWhere(viewer, userId, realm, since);
  if (!where) return null;
  return paged(page, {
    findMany: (query) => db().invite.findMany({ ...query, where }),
    count: () => db().invite.count({ where }),
  });
}

/** Accepting joins the group (as a member) or the section (as a student); someone already in it stays as they are. */
async function join(tx: Prisma.TransactionClient, viewer: Viewer, realm: RealmRef, userId: number, facts: RealmFacts) {
  const event = { realm, actorId: viewer.id, scope: facts };
  if (realm.type === 'GROUP') {
    const [membership] = await tx.groupMembership.createManyAndReturn({
      data: [{ groupId: realm.id, userId }],
      skipDuplicates: true,
    });
    if (membership) await recordEvent(tx, membershipEvents.create, { ...event, objectId: membership.id });
    return;
  }
  const [enrollment] = await tx.enrollment.createManyAndReturn({
    data: [{ sectionId: realm.id, userId }],
    skipDuplicates: true,
  });
  if (enrollment) await recordEvent(tx, rosterEvents.createEnrollment, { ...event, objectId: enrollment.id });
  // An enrollment made as "invite pending" is what this invite settles.
  else
    await tx.enrollment.updateMany({
      where: { sectionId: realm.id, userId, status: 'INVITE_PENDING' },
      data: { status: 'ACTIVE' },
    });
}

/** Denying an invite removes the enrollment made as "invite pending" that it would have settled, if there is one. */
async function dropPendingEnrollment(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  realm: RealmRef,
  userId: number,
  facts: RealmFacts,
) {
  const pending = await tx.enrollment.findFirst({
    where: { sectionId: realm.id, userId, status: 'INVITE_PENDING' },
    select: { id: true },
  });
  if (!pending) return;
  await tx.enrollment.delete({ where: { id: pending.id } });
  await recordEvent(tx, rosterEvents.deleteEnrollment, {
    realm,
    objectId: pending.id,
    actorId: viewer.id,
    scope: facts,
  });
}

export async function answerInvite(viewer: Viewer, userId: number, kind: InviteRealm, id: number, action: Action) {
  await authorize(viewer, invitePolicy, 'answer', userId, userId, 'User');
  const notFound = () => new NotFoundError('Invite', id);
  const invite = await findByStorableId(id, (id) =>
    db().invite.findFirst({
      where: { id, userId, [realmColumn[kind]]: { not: null } },
      select: { groupId: true, sectionId: true },
    }),
  );
  if (!invite) throw notFound();
  const realm: RealmRef =
    invite.groupId !== null ? { type: 'GROUP', id: invite.groupId } : { type: 'SECTION', id: invite.sectionId! };
  const facts = await realmFacts(viewer, realm);
  return writeTransaction(async (tx) => {
    // Answering removes the invite. Of two answers racing, the second waits for the first to commit and then finds
    // nothing to remove: it is a NotFoundError and joins nobody, so exactly one membership is made.
    const { count } = await tx.invite.deleteMany({ where: { id } });
    if (count === 0) throw notFound();
    if (action === 'ACCEPT') await join(tx, viewer, realm, userId, facts);
    else if (realm.type === 'SECTION') await dropPendingEnrollment(tx, viewer, realm, userId, facts);
    const kindOfEvent = action === 'ACCEPT' ? inviteEvents.accept : inviteEvents.deny;
    await recordEvent(tx, kindOfEvent, { realm, objectId: id, actorId: viewer.id, scope: facts, data: { userId } });
    return { id, action, realm: realm.type as InviteRealm, realmId: realm.id };
  });
}
