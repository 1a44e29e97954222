import { type InputFieldBuilder, builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { parseId } from '../../graphql/realm';
import { addGroupMember, removeGroupMember } from './group-membership.service';
import { createGroup, createGroupCategory, deleteGroup, updateGroup } from './group.service';
import { InviteTypeEnum, PrivacyLevelEnum } from './group.type';

const groupInputFields = (t: InputFieldBuilder) => ({
  description: t.string({ description: 'Description, as plain text, stored as given (front ends escape it).' }),
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

objectMutation('createGroup', {
  type: 'Group',
  description: 'Creates a group (staff of the school, and district administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ input: arg(required(CreateGroupInput, 'The new group.')) }),
  resolve: (viewer, args, query) => createGroup(viewer, args.input, query),
});
objectMutation('updateGroup', {
  type: 'Group',
  description: 'Changes a group (its administrators).',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The group to change.' }), input: arg(required(UpdateGroupInput, 'What to change; members left out keep their values.')) }),
  resolve: (viewer, args, query) => updateGroup(viewer, parseId(args.id, 'Group'), args.input, query),
});
deleteMutation('deleteGroup', {
  description: 'Deletes a group with its memberships and posts (its administrators).',
  errors: [NotFoundError],
  args: (arg) => ({ id: arg.id({ required: true, description: 'The group to delete.' }) }),
  resolve: (viewer, args) => deleteGroup(viewer, parseId(args.id, 'Group')),
});
objectMutation('createGroupCategory', {
  type: 'GroupCategory',
  description: 'Creates a group category in the viewer\'s district (district administrators).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ input: arg(required(CreateGroupCategoryInput, 'The new group category.')) }),
  resolve: (viewer, args, query) => createGroupCategory(viewer, args.input, query),
});
objectMutation('addGroupMember', {
  type: 'GroupMembership',
  description: 'Adds a user to a group (its administrators).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ input: arg(required(GroupMemberInput, 'The group and the user.')) }),
  resolve: (viewer, args, query) => addGroupMember(viewer, args.input, query),
});
deleteMutation('removeGroupMember', {
  description: 'Removes a user from a group (its administrators); returns the membership id.',
  errors: [ValidationError, NotFoundError],
  args: (arg) => ({ input: arg(required(GroupMemberInput, 'The group and the user.')) }),
  resolve: (viewer, args) => removeGroupMember(viewer, args.input),
});
