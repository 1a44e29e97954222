import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { deleteMutation, objectMutation, required } from '../../graphql/operations';
import { changesInput, inputFromSchema } from '../../graphql/inputs';
import { parseId } from '../../graphql/realm';
import { addGroupMember, removeGroupMember } from './group-membership.service';
import { createGroup, createGroupCategory, deleteGroup, updateGroup } from './group.service';
import { InviteTypeEnum, PrivacyLevelEnum } from './group.type';
import { createGroupSchema, groupCategorySchema, groupMemberSchema, updateGroupSchema } from './group.validation';

const types = { privacyLevel: PrivacyLevelEnum, inviteType: InviteTypeEnum };
const CreateGroupInput = inputFromSchema(
  'CreateGroupInput',
  createGroupSchema,
  'A new group; the viewer becomes its first administrator.',
  types,
);
const UpdateGroupInput = changesInput('UpdateGroupInput', updateGroupSchema, 'a group', types);
const CreateGroupCategoryInput = inputFromSchema(
  'CreateGroupCategoryInput',
  groupCategorySchema,
  "A new group category of the viewer's district.",
);
const GroupMemberInput = inputFromSchema('GroupMemberInput', groupMemberSchema, "A user's membership of a group.");

objectMutation('createGroup', {
  type: 'Group',
  description: 'Creates a group (staff of the school, and district administrators).',
  args: (arg) => ({ input: arg(required(CreateGroupInput, 'The new group.')) }),
  resolve: (viewer, args, query) => createGroup(viewer, args.input, query),
});
objectMutation('updateGroup', {
  type: 'Group',
  description: 'Changes a group (its administrators).',
  args: (arg) => ({
    id: arg.id({ required: true, description: 'The group to change.' }),
    input: arg(required(UpdateGroupInput, 'What to change; members left out keep their values.')),
  }),
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
  description: "Creates a group category in the viewer's district (district administrators).",
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
