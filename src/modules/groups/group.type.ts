import { thenMaybe } from '../../auth/maybe-promise';
import { can } from '../../auth/policy';
import { InviteType, PrivacyLevel } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import {
  exposeColumns,
  exposeDatabaseId,
  exposeLongText,
  exposeOptionalText,
  exposeReference,
  nodeId,
} from '../../graphql/columns';
import { SchoolType } from '../schools/school.type';
import { knownRealm } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { readableUsersWhere } from '../users/user.policy';
import { keysetRelatedConnection, listOrder } from '../../graphql/connections';
import { groupFacts, groupFactsSelection, groupPolicy } from './group.policy';
import { groupDescriptionMaxLength } from './group.validation';

/**
 * Asks the group policy about a group whose row is loaded, without loading it again; for an administrator, without a
 * promise (see `can`), so a page's rows resolve synchronously.
 */
function groupCan(
  viewer: Viewer | null,
  group: Parameters<typeof groupFacts>[0],
  action: 'administer' | 'post' | 'comment',
) {
  if (!viewer) return false;
  knownRealm(viewer, { type: 'GROUP', id: group.id }, groupFacts(group));
  return can(viewer, groupPolicy, action, group.id);
}

export const PrivacyLevelEnum = builder.enumType(PrivacyLevel, {
  name: 'PrivacyLevel',
  description:
    'Who sees a group: everyone, school members, building members, or group members only (custom is read only).',
  values: {
    EVERYONE: { description: 'Every user of the platform sees the group.' },
    SCHOOL: { description: "Members of the group's school see it (the default)." },
    BUILDING: { description: "Members of the group's building see it." },
    GROUP: { description: "Only the group's own members see it." },
    CUSTOM: { description: 'A visibility set up on the platform itself; it is read only and cannot be set.' },
  },
});

export const InviteTypeEnum = builder.enumType(InviteType, {
  name: 'InviteType',
  description: 'How people join a group.',
  values: {
    INVITE_ONLY: { description: 'Only people its administrators invite (`invite_type` 0, the default).' },
    REQUEST_TO_JOIN: { description: 'People ask to join and its administrators accept them (`invite_type` 1).' },
    ANYONE_CAN_JOIN: { description: 'Anyone who sees the group may join it (`invite_type` 2).' },
  },
});

export const GroupCategoryType = builder.prismaNode('GroupCategory', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GroupCategory', ['title']),
  }),
});

export const GroupMembershipType = builder.prismaNode('GroupMembership', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'GroupMembership', ['admin', 'createdAt']),
    user: t.relation('user'),
    group: t.relation('group', { description: 'The group (its `memberCount` changes with its memberships).' }),
  }),
});

export const GroupType = builder.prismaNode('Group', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'Group', [
      'title',
      'memberPost',
      'memberPostComment',
      'createDiscussion',
      'createFiles',
      'createdAt',
    ]),
    ...exposeLongText(t, 'Group', 'description', groupDescriptionMaxLength),
    ...exposeOptionalText(t, 'Group', ['pictureUrl', 'website', 'groupCode']),
    accessCode: t.string({
      nullable: true,
      description: 'Join code; null unless the viewer administers the group.',
      select: { accessCode: true, ...groupFactsSelection },
      resolve: (group, _args, { viewer }) =>
        thenMaybe(groupCan(viewer, group, 'administer'), (administers) => (administers ? group.accessCode : null)),
    }),
    viewerCanPost: t.boolean({
      description: 'Whether the viewer may post in the group (administrators; members when memberPost is on).',
      select: groupFactsSelection,
      resolve: (group, _args, { viewer }) => groupCan(viewer, group, 'post'),
    }),
    viewerCanComment: t.boolean({
      description:
        'Whether the viewer may comment in the group (administrators; members when memberPostComment is on).',
      select: groupFactsSelection,
      resolve: (group, _args, { viewer }) => groupCan(viewer, group, 'comment'),
    }),
    privacyLevel: t.expose('privacyLevel', { type: PrivacyLevelEnum }),
    category: exposeReference(t, 'Group', 'category', GroupCategoryType),
    inviteType: t.expose('inviteType', { type: InviteTypeEnum }),
    school: exposeReference(t, 'Group', 'school', SchoolType),
    building: exposeReference(t, 'Group', 'building', SchoolType),
    // A group open to everyone must not list, nor count, the people of other schools that `user(id)` hides.
    members: t.relation('memberships', {
      description: 'Members of the group the viewer may see as users, in the order they joined.',
      query: (_args, { viewer }) => ({ where: { user: readableUsersWhere(viewer) }, orderBy: { id: 'asc' } }),
    }),
    membersConnection: keysetRelatedConnection(t, 'memberships', {
      type: GroupMembershipType,
      description: 'The members `members` lists, as a Relay connection in the same order.',
      order: [listOrder],
      where: (_args, { viewer }) => ({ user: readableUsersWhere(viewer) }),
    }),
    memberCount: t.relationCount('memberships', {
      description: 'Number of members the viewer may see (the length of `members`).',
      where: (_args, { viewer }) => ({ user: readableUsersWhere(viewer) }),
    }),
  }),
});
