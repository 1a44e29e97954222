import { can } from '../../auth/policy';
import { InviteType, PrivacyLevel } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { knownRealm } from '../../auth/realms';
import type { Viewer } from '../../auth/viewer';
import { groupFacts, groupFactsSelection, groupPolicy } from './group.policy';

/** Asks the group policy about a group whose row is loaded, without loading it again. */
function groupCan(viewer: Viewer | null, group: Parameters<typeof groupFacts>[0], action: 'administer' | 'post' | 'comment') {
  if (!viewer) return false;
  knownRealm(viewer, { type: 'GROUP', id: group.id }, groupFacts(group));
  return can(viewer, groupPolicy, action, group.id);
}

export const PrivacyLevelEnum = builder.enumType(PrivacyLevel, {
  name: 'PrivacyLevel',
  description: 'Who sees a group: everyone, school members, building members, or group members only (custom is read only).',
});

export const InviteTypeEnum = builder.enumType(InviteType, {
  name: 'InviteType',
  description: 'How people join a group.',
});

export const GroupCategoryType = builder.prismaObject('GroupCategory', {
  description: 'A category groups are filed under, defined per district.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Category id.' }),
    title: t.exposeString('title', { description: 'Category name.' }),
  }),
});

export const GroupMembershipType = builder.prismaObject('GroupMembership', {
  description: 'A user\'s membership of a group.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Membership id.' }),
    admin: t.exposeBoolean('admin', { description: 'Whether the member administers the group.' }),
    user: t.relation('user', { description: 'The member.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the user joined.' }),
  }),
});

export const GroupType = builder.prismaObject('Group', {
  description: 'A group of users, such as a club or a committee, belonging to a school.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Group id.' }),
    title: t.exposeString('title', { description: 'Title.' }),
    description: t.exposeString('description', { description: 'Description.' }),
    pictureUrl: t.exposeString('pictureUrl', { description: 'Profile picture URL.' }),
    website: t.exposeString('website', { description: 'Website.' }),
    accessCode: t.string({
      nullable: true,
      description: 'Join code; null unless the viewer administers the group.',
      select: { accessCode: true, ...groupFactsSelection },
      resolve: async (group, _args, { viewer }) => ((await groupCan(viewer, group, 'administer')) ? group.accessCode : null),
    }),
    viewerCanPost: t.boolean({
      description: 'Whether the viewer may post in the group (administrators; members when memberPost is on).',
      select: groupFactsSelection,
      resolve: (group, _args, { viewer }) => groupCan(viewer, group, 'post'),
    }),
    viewerCanComment: t.boolean({
      description: 'Whether the viewer may comment in the group (administrators; members when memberPostComment is on).',
      select: groupFactsSelection,
      resolve: (group, _args, { viewer }) => groupCan(viewer, group, 'comment'),
    }),
    privacyLevel: t.expose('privacyLevel', { type: PrivacyLevelEnum, description: 'Who sees the group.' }),
    category: t.relation('category', { nullable: true, description: 'Category of the group.' }),
    inviteType: t.expose('inviteType', { type: InviteTypeEnum, description: 'How people join.' }),
    memberPost: t.exposeBoolean('memberPost', { description: 'Members may post group updates.' }),
    memberPostComment: t.exposeBoolean('memberPostComment', { description: 'Members may comment on updates.' }),
    createDiscussion: t.exposeBoolean('createDiscussion', { description: 'Members may create discussion threads.' }),
    createFiles: t.exposeBoolean('createFiles', { description: 'Members may create resources.' }),
    groupCode: t.exposeString('groupCode', { description: 'External id when imported from another system.' }),
    school: t.relation('school', { description: 'School the group belongs to.' }),
    building: t.relation('building', { nullable: true, description: 'Building the group belongs to, if any.' }),
    members: t.relation('memberships', {
      description: 'Members of the group, in the order they joined.',
      query: { orderBy: { id: 'asc' } },
    }),
    memberCount: t.relationCount('memberships', { description: 'Number of members.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the group was created.' }),
  }),
});
