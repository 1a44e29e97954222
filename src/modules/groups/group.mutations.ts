import { parseId } from '../../graphql/realm';
import { readById } from '../../graphql/reads-by-id';
import { objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import {
  addGroupMember,
  deleteGroupMembership,
  joinGroup,
  removeGroupMember,
  updateGroupMembership,
} from './group-membership.service';
import { createGroup, createGroupCategory, deleteGroup, updateGroup } from './group.service';
import { joinByCodeSchema } from '../roster/roster.validation';
import { InviteTypeEnum, PrivacyLevelEnum } from './group.type';
import {
  createGroupSchema,
  groupCategorySchema,
  groupMemberSchema,
  groupMembershipSchema,
  updateGroupMembershipSchema,
  updateGroupSchema,
} from './group.validation';

const types = { privacyLevel: PrivacyLevelEnum, inviteType: InviteTypeEnum };

payloadMutation('createGroup', {
  description: 'Creates a group (staff of the school, and district administrators).',
  input: createGroupSchema,
  inputDescription: 'A new group; the viewer becomes its first administrator.',
  types,
  payload: { group: { model: 'Group', description: 'The new group.' } },
  resolve: async (viewer, input, select) => ({ group: await createGroup(viewer, input, select('group')) }),
});
payloadMutation('updateGroup', {
  description: 'Changes a group (its administrators).',
  input: withMembers(updateGroupSchema, { id: objectIdMember('The group to change.') }),
  inputDescription: 'The group, and changes to it; members left out keep their values.',
  types,
  payload: { group: { model: 'Group', description: 'The group as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    group: await updateGroup(viewer, parseId(id, 'Group'), changes, select('group')),
  }),
});
payloadMutation('deleteGroup', {
  description: 'Deletes a group with its memberships and posts (its administrators).',
  input: objectIdInput('The group to delete.'),
  inputDescription: 'The group to delete.',
  payload: { deletedGroupId: { deleted: 'Group', description: 'Global id of the deleted group.' } },
  resolve: async (viewer, { id }) => ({ deletedGroupId: (await deleteGroup(viewer, parseId(id, 'Group'))).id }),
});
payloadMutation('createGroupCategory', {
  description: "Creates a group category in the viewer's district (district administrators).",
  input: groupCategorySchema,
  inputDescription: "A new group category of the viewer's district.",
  payload: { groupCategory: { model: 'GroupCategory', description: 'The new category.' } },
  resolve: async (viewer, input, select) => ({
    groupCategory: await createGroupCategory(viewer, input, select('groupCategory')),
  }),
});
payloadMutation('addGroupMember', {
  description: 'Adds a user to a group (its administrators).',
  input: groupMemberSchema,
  inputDescription: "A user's membership of a group.",
  payload: {
    groupMembership: { model: 'GroupMembership', description: 'The new membership.' },
    group: { model: 'Group', description: 'The group, with its member count as it now is.' },
  },
  resolve: async (viewer, input, select) => {
    const groupMembership = await addGroupMember(viewer, input, select('groupMembership'));
    return { groupMembership, group: await readById('Group', select('group'), groupMembership.groupId) };
  },
});
payloadMutation('joinGroup', {
  description:
    'Makes the viewer a member of the group whose access code they give, whatever its invite type. A wrong code, or ' +
    'one of another district, is NOT_FOUND; a member already is a CONFLICT.',
  input: joinByCodeSchema,
  inputDescription: "A group's access code.",
  payload: {
    groupMembership: { model: 'GroupMembership', description: "The viewer's new membership." },
    group: { model: 'Group', description: 'The group joined, with its member count as it now is.' },
  },
  resolve: async (viewer, input, select) => {
    const groupMembership = await joinGroup(viewer, input, select('groupMembership'));
    return { groupMembership, group: await readById('Group', select('group'), groupMembership.groupId) };
  },
});
payloadMutation('removeGroupMember', {
  description: 'Removes a user from a group (its administrators).',
  input: groupMembershipSchema,
  inputDescription: 'The group and the user.',
  payload: {
    deletedGroupMembershipId: { deleted: 'GroupMembership', description: 'Global id of the removed membership.' },
    group: { model: 'Group', description: 'The group, with its member count as it now is.' },
  },
  resolve: async (viewer, input, select) => {
    const { id } = await removeGroupMember(viewer, input);
    return {
      deletedGroupMembershipId: id,
      group: await readById('Group', select('group'), parseId(input.groupId, 'Group')),
    };
  },
});

/** The group a membership must be one of, when given (a membership of another group is not found). */
const groupMember = {
  groupId: objectIdMember(
    'The group; the membership must be one of its (a membership of another group is not found).',
  ).nullish(),
};
const groupOf = (groupId: string | null | undefined) => (groupId == null ? null : parseId(groupId, 'Group', 'groupId'));

payloadMutation('updateGroupMembership', {
  description: "Gives or takes a member's administration of the group (its administrators).",
  input: withMembers(updateGroupMembershipSchema, {
    id: objectIdMember('The membership to change.'),
    ...groupMember,
  }),
  inputDescription: 'The membership, and the change to it; members left out keep their values.',
  payload: { groupMembership: { model: 'GroupMembership', description: 'The membership as changed.' } },
  resolve: async (viewer, { id, groupId, ...changes }, select) => ({
    groupMembership: await updateGroupMembership(
      viewer,
      parseId(id, 'GroupMembership'),
      groupOf(groupId),
      changes,
      select('groupMembership'),
    ),
  }),
});
payloadMutation('deleteGroupMembership', {
  description: 'Removes a membership, named by its id, from its group (its administrators).',
  input: withMembers(objectIdInput('The membership to remove.'), groupMember),
  inputDescription: 'The membership to remove.',
  payload: {
    deletedGroupMembershipId: { deleted: 'GroupMembership', description: 'Global id of the removed membership.' },
    group: { model: 'Group', description: 'The group, with its member count as it now is.' },
  },
  resolve: async (viewer, { id, groupId }, select) => {
    const removed = await deleteGroupMembership(viewer, parseId(id, 'GroupMembership'), groupOf(groupId));
    return { deletedGroupMembershipId: removed.id, group: await readById('Group', select('group'), removed.groupId) };
  },
});
