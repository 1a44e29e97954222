import { authorize, can } from '../../auth/policy';
import { findByStorableId, isStorableId, realmFacts } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { NotFoundError, ValidationError } from '../../core/errors';
import { conflictOnUnique } from '../../db/unique';
import { validate } from '../../core/validation';
import { db } from '../../db/database';
import { defineEvent } from '../../outbox/catalogue';
import { recordEvent, recordEvents, writeTransaction } from '../../outbox/record';
import type { GroupMembership, Prisma } from '../../generated/prisma/client';
import { paged } from '../../graphql/paging';
import { findIfVisible } from '../../graphql/visible';
import { realmByCode, writeRoster } from '../roster/enrollment.service';
import { enrollmentItemSchema } from '../roster/roster.validation';
import { readableUsersWhere, userPolicy } from '../users/user.policy';
import { groupPolicy } from './group.policy';
import { groupMemberSchema, updateGroupMembershipSchema } from './group.validation';

type MembershipQuery = { include?: Prisma.GroupMembershipInclude; select?: Prisma.GroupMembershipSelect };

const membershipEvent = (type: `group_member.${string}`, description: string) =>
  defineEvent(type, { object: 'GroupMembership', realms: ['GROUP'], description });
export const membershipEvents = {
  create: membershipEvent('group_member.create', 'A user joined a group.'),
  update: membershipEvent('group_member.update', "A member's group administration was given or taken."),
  delete: membershipEvent('group_member.delete', 'A user left a group.'),
};

/** What `/v1` filters a group's enrollments by: the admin flag, users. */
export interface MembershipFilter {
  admin?: boolean | null;
  userIds?: readonly number[] | null;
}

/** The memberships of a group that a reader of the group sees (as `Group.members`: users the viewer may see). */
export function groupMembershipsWhere(
  viewer: Viewer,
  groupId: number,
  filter: MembershipFilter,
): Prisma.GroupMembershipWhereInput {
  return {
    groupId,
    user: readableUsersWhere(viewer),
    ...(filter.admin != null ? { admin: filter.admin } : {}),
    ...(filter.userIds?.length ? { userId: { in: filter.userIds.filter(isStorableId) } } : {}),
  };
}

/** A group's memberships by id, for whoever reads the group; null when it is hidden. They are its /v1 enrollments. */
export async function listGroupMemberships(
  viewer: Viewer,
  groupId: number,
  filter: MembershipFilter,
  page: { start?: number | null; limit?: number | null },
) {
  if (!(await can(viewer, groupPolicy, 'read', groupId))) return null;
  const where = groupMembershipsWhere(viewer, groupId, filter);
  return paged(page, {
    findMany: (query) => db().groupMembership.findMany({ ...query, where, orderBy: { id: 'asc' } }),
    count: () => db().groupMembership.count({ where }),
  });
}

/** One membership of a group the viewer reads; null when it, or the group, does not exist or is hidden. */
export async function groupMembership(viewer: Viewer, groupId: number, id: number, query: MembershipQuery) {
  return findIfVisible(query, can(viewer, groupPolicy, 'read', groupId), (selection) =>
    isStorableId(id)
      ? db().groupMembership.findFirst({ ...selection, where: { id, groupId, user: readableUsersWhere(viewer) } })
      : Promise.resolve(null),
  );
}

/** The membership `id` (of the group, when given) in a group the viewer administers; NotFoundError otherwise. */
async function administeredMembership(viewer: Viewer, id: number, groupId: number | null) {
  const found = await findByStorableId(id, (key) =>
    db().groupMembership.findUnique({ where: { id: key }, select: { id: true, groupId: true } }),
  );
  if (!found || (groupId !== null && found.groupId !== groupId)) throw new NotFoundError('GroupMembership', id);
  await authorize(viewer, groupPolicy, 'administer', found.groupId, id, 'GroupMembership');
  const group = { type: 'GROUP' as const, id: found.groupId };
  return { id: found.id, group, facts: await realmFacts(viewer, group) };
}

/** Gives or takes a member's administration of the group (its administrators). */
export async function updateGroupMembership(
  viewer: Viewer,
  id: number,
  groupId: number | null,
  input: unknown,
  query: MembershipQuery,
) {
  const membership = await administeredMembership(viewer, id, groupId);
  const data = validate(updateGroupMembershipSchema, input);
  return writeTransaction(async (tx) => {
    const changed = await tx.groupMembership.update({ ...query, where: { id: membership.id }, data });
    await recordEvent(tx, membershipEvents.update, {
      realm: membership.group,
      objectId: membership.id,
      actorId: viewer.id,
      scope: membership.facts,
    });
    return changed;
  });
}

/** Removes a membership named by its id (its group's administrators). */
export async function deleteGroupMembership(viewer: Viewer, id: number, groupId: number | null) {
  const membership = await administeredMembership(viewer, id, groupId);
  await writeTransaction(async (tx) => {
    // deleteMany: a concurrent removal of the same membership is a NotFoundError, not a failed delete (500).
    const { count } = await tx.groupMembership.deleteMany({ where: { id: membership.id } });
    if (count === 0) throw new NotFoundError('GroupMembership', id);
    await recordEvent(tx, membershipEvents.delete, {
      realm: membership.group,
      objectId: membership.id,
      actorId: viewer.id,
      scope: membership.facts,
    });
  });
  return { id: membership.id, groupId: membership.group.id };
}

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

/**
 * Makes the viewer a member of the group whose access code they give, whatever its invite type (the code is its
 * administrators' consent). A member already is a ConflictError (the platform does not say; docs/rest/roster.md).
 */
export async function joinGroup(viewer: Viewer, input: unknown, query: MembershipQuery) {
  const { realm, facts } = await realmByCode(viewer, 'GROUP', input, (accessCode) =>
    db().group.findFirst({ where: { accessCode }, select: { id: true } }),
  );
  return writeTransaction(async (tx) => {
    const membership = await tx.groupMembership.create({
      ...query,
      data: { groupId: realm.id, userId: viewer.id, admin: false },
    });
    await recordEvent(tx, membershipEvents.create, {
      realm,
      objectId: membership.id,
      actorId: viewer.id,
      scope: facts,
    });
    return membership;
  }).catch(conflictOnUnique('You are already a member of this group', 'accessCode'));
}

/**
 * Adds users to a group, item by item as a section's bulk enrollment (writeRoster): `uid` or `school_uid` (in the
 * group's school), `admin`, and `status`, which can only be active (groups hold active members only).
 */
export async function createGroupMemberships(viewer: Viewer, groupId: number, items: readonly unknown[]) {
  const group = { type: 'GROUP' as const, id: groupId };
  await authorize(viewer, groupPolicy, 'administer', groupId, groupId);
  const facts = await realmFacts(viewer, group);
  const event = { realm: group, actorId: viewer.id, scope: facts };
  return writeRoster<GroupMembership, { admin?: boolean }>(viewer, items, {
    schoolId: facts.schoolId!,
    read: (item) => {
      const { userId, schoolUid, admin, status } = validate(enrollmentItemSchema, item);
      if (status !== undefined && status !== 'ACTIVE')
        throw new ValidationError([
          { field: 'status', message: 'must be active (1): groups hold active members only' },
        ]);
      return { userId, schoolUid, state: { admin } };
    },
    load: (userIds) => db().groupMembership.findMany({ where: { groupId, userId: { in: [...userIds] } } }),
    matches: (row, state) => state.admin === undefined || state.admin === row.admin,
    change: (userId, { admin }, current) =>
      writeTransaction(async (tx) => {
        const membership = current
          ? await tx.groupMembership.update({ where: { id: current.id }, data: { admin } })
          : await tx.groupMembership.create({ data: { groupId, userId, admin: admin ?? false } });
        const kind = current ? membershipEvents.update : membershipEvents.create;
        await recordEvent(tx, kind, { ...event, objectId: membership.id });
        return membership;
      }),
    insert: async (tx, fresh) => {
      const rows = await tx.groupMembership.createManyAndReturn({
        data: fresh.map(({ userId, state }) => ({ groupId, userId, admin: state.admin ?? false })),
        skipDuplicates: true,
      });
      await recordEvents(
        tx,
        membershipEvents.create,
        rows.map((membership) => ({ ...event, objectId: membership.id })),
      );
      return rows;
    },
  });
}
