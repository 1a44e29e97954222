import { type InputFieldBuilder, builder } from '../../graphql/builder';
import { DeletedType } from '../../graphql/deleted';
import { parseId } from '../../graphql/realm';
import { addGroupMember, removeGroupMember } from './group-membership.service';
import { createGroup, createGroupCategory, deleteGroup, updateGroup } from './group.service';
import { InviteTypeEnum, PrivacyLevelEnum } from './group.type';

const groupInputFields = (t: InputFieldBuilder) => ({
  description: t.string({ description: 'Description.' }),
  pictureUrl: t.string({ description: 'Profile picture URL.' }),
  website: t.string({ description: 'Website.' }),
  privacyLevel: t.field({ type: PrivacyLevelEnum, description: 'Who sees the group (default SCHOOL; CUSTOM cannot be set).' }),
  categoryId: t.id({ description: 'Group category; null removes it.' }),
  buildingId: t.id({ description: 'Building of the group\'s school; null removes it.' }),
  groupCode: t.string({ description: 'External id when imported from another system.' }),
  inviteType: t.field({ type: InviteTypeEnum, description: 'How people join (default INVITE_ONLY).' }),
  memberPost: t.boolean({ description: 'Members may post group updates (default true).' }),
  memberPostComment: t.boolean({ description: 'Members may comment on updates (default true).' }),
  createDiscussion: t.boolean({ description: 'Members may create discussion threads (default false).' }),
  createFiles: t.boolean({ description: 'Members may create resources (default false).' }),
});

const CreateGroupInput = builder.inputType('CreateGroupInput', {
  description: 'A new group; the viewer becomes its first administrator.',
  fields: (t) => ({
    title: t.string({ required: true, description: 'Title.' }),
    schoolId: t.id({ description: 'School of the group; the viewer\'s school when left out.' }),
    ...groupInputFields(t),
  }),
});

const UpdateGroupInput = builder.inputType('UpdateGroupInput', {
  description: 'Changes to a group; members left out keep their values.',
  fields: (t) => ({ title: t.string({ description: 'Title.' }), ...groupInputFields(t) }),
});

const CreateGroupCategoryInput = builder.inputType('CreateGroupCategoryInput', {
  description: 'A new group category of the viewer\'s district.',
  fields: (t) => ({ title: t.string({ required: true, description: 'Category name.' }) }),
});

const GroupMemberInput = builder.inputType('GroupMemberInput', {
  description: 'A user\'s membership of a group.',
  fields: (t) => ({
    groupId: t.id({ required: true, description: 'Group.' }),
    userId: t.id({ required: true, description: 'User.' }),
    admin: t.boolean({ description: 'Group administrator; default false.' }),
  }),
});

builder.mutationFields((t) => ({
  createGroup: t.withAuth({ authenticated: true }).prismaField({
    type: 'Group',
    description: 'Creates a group (staff of the school, and district administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateGroupInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createGroup(viewer, args.input, query),
  }),
  updateGroup: t.withAuth({ authenticated: true }).prismaField({
    type: 'Group',
    description: 'Changes a group (its administrators).',
    errors: {},
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateGroupInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => updateGroup(viewer, parseId(args.id), args.input, query),
  }),
  deleteGroup: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Deletes a group with its memberships and posts (its administrators).',
    errors: {},
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, { viewer }) => deleteGroup(viewer, parseId(args.id)),
  }),
  createGroupCategory: t.withAuth({ authenticated: true }).prismaField({
    type: 'GroupCategory',
    description: 'Creates a group category in the viewer\'s district (district administrators).',
    errors: {},
    args: { input: t.arg({ type: CreateGroupCategoryInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => createGroupCategory(viewer, args.input, query),
  }),
  addGroupMember: t.withAuth({ authenticated: true }).prismaField({
    type: 'GroupMembership',
    description: 'Adds a user to a group (its administrators).',
    errors: {},
    args: { input: t.arg({ type: GroupMemberInput, required: true }) },
    resolve: (query, _root, args, { viewer }) => addGroupMember(viewer, args.input, query),
  }),
  removeGroupMember: t.withAuth({ authenticated: true }).field({
    type: DeletedType,
    description: 'Removes a user from a group (its administrators); returns the membership id.',
    errors: {},
    args: { input: t.arg({ type: GroupMemberInput, required: true }) },
    resolve: (_root, args, { viewer }) => removeGroupMember(viewer, args.input),
  }),
}));
