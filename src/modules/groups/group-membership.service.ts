import { authorize } from '../../auth/policy';
import { findByStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError } from '../../core/errors';
import { conflictOnUnique } from '../../db/unique';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, writeTransaction } from '../../outbox/record';
import type { Prisma } from '../../generated/prisma/client';
import { userPolicy } from '../users/user.policy';
import { groupPolicy } from './group.policy';
import { groupMemberSchema } from './group.validation';

type MembershipQuery = { include?: Prisma.GroupMembershipInclude; select?: Prisma.GroupMembershipSelect };

const membershipEvent = (type: `group_member.${string}`, description: string) =>
  defineEvent(type, { object: 'GroupMembership', realms: ['GROUP'], description });
export const membershipEvents = {
  create: membershipEvent('group_member.create', 'A user joined a group.'),
  delete: membershipEvent('group_member.delete', 'A user left a group.'),
};

/** The group the viewer administers, and the user they name, who must be visible to them. */
async function membershipTarget(viewer: Viewer, input: unknown) {
  const { groupId, userId, admin } = validate(groupMemberSchema, input);
  const group = { type: 'GROUP' as const, id: Number(groupId) };
  await authorize(viewer, groupPolicy, 'administer', group.id, groupId);
  const facts = await realmFacts(viewer, group);
  return { group, facts, userId: Number(userId), admin: admin ?? false };
}

export async function addGroupMember(viewer: Viewer, input: unknown, query: MembershipQuery) {
  const { group, facts, userId, admin } = await membershipTarget(viewer, input);
  await authorize(viewer, userPolicy, 'read', userId, userId);
  return writeTransaction(async (tx) => {
    const membership = await tx.groupMembership.create({ ...query, data: { groupId: group.id, userId, admin } });
    await recordEvent(tx, membershipEvents.create, {
      realm: group,
      objectId: membership.id,
      actorId: viewer.id,
      scope: facts,
    });
    return membership;
  }).catch(conflictOnUnique('The user is already a member of this group', 'userId'));
}

export async function removeGroupMember(viewer: Viewer, input: unknown) {
  const { group, facts, userId } = await membershipTarget(viewer, input);
  const notFound = () => new NotFoundError('GroupMembership', `${group.id}/${userId}`);
  const membership = await findByStorableId(userId, (id) =>
    db().groupMembership.findUnique({
      where: { groupId_userId: { groupId: group.id, userId: id } },
      select: { id: true },
    }),
  );
  if (!membership) throw notFound();
  await writeTransaction(async (tx) => {
    // deleteMany: a concurrent removal of the same membership is a NotFoundError, not a failed delete (500).
    const { count } = await tx.groupMembership.deleteMany({ where: { id: membership.id } });
    if (count === 0) throw notFound();
    await recordEvent(tx, membershipEvents.delete, {
      realm: group,
      objectId: membership.id,
      actorId: viewer.id,
      scope: facts,
    });
  });
  return { id: membership.id };
}
