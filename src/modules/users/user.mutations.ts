import { inputFromSchema, objectIdInput, objectIdMember, withMembers } from '../../graphql/inputs';
import { payloadMutation } from '../../graphql/payloads';
import { parseId } from '../../graphql/realm';
import {
  createUser,
  createUsers,
  deactivateUser,
  deactivateUsers,
  deleteUser,
  deleteUsers,
  reactivateUser,
  reactivateUsers,
  updateUser,
  updateUsers,
} from './user.service';
import { RoleEnum, UserResultType } from './user.type';
import {
  createUserSchema,
  createUsersSchema,
  deactivateUserSchema,
  deactivateUsersSchema,
  deleteUsersSchema,
  maxUserItems,
  reactivateUsersSchema,
  updateUserSchema,
  updateUsersSchema,
  userChangeSchema,
} from './user.validation';

const types = { role: RoleEnum };
const results = { type: UserResultType, list: true, description: 'One result per item, in the order sent.' } as const;
const itemByItem = `item by item: an item that cannot be written does not stop the others, and each good item is committed. At most ${maxUserItems} items.`;

const CreateUserInput = inputFromSchema(
  'NewUserInput',
  createUserSchema,
  'One item of a bulk create: a new user of a school.',
  types,
);
const UserChangeInput = inputFromSchema(
  'UserChangeInput',
  userChangeSchema,
  'One item of a bulk change: the user, and its members to change.',
  types,
);

payloadMutation('createUser', {
  description: 'Creates a user (school and district administrators).',
  input: createUserSchema,
  inputDescription: 'A new user of a school.',
  types,
  payload: { user: { model: 'User', description: 'The new user.' } },
  resolve: async (viewer, input, select) => ({ user: await createUser(viewer, input, select('user')) }),
});

payloadMutation('createUsers', {
  description: `Creates users (school and district administrators), ${itemByItem}`,
  input: createUsersSchema,
  inputDescription: 'The new users, and whether one whose school user id is taken changes that user instead.',
  types: { items: CreateUserInput },
  payload: { results },
  resolve: async (viewer, { items, updateExisting }) => createUsers(viewer, items, updateExisting ?? false),
});

payloadMutation('updateUser', {
  description: "Changes a user (their school's and district's administrators).",
  input: withMembers(updateUserSchema, { id: objectIdMember('The user to change.') }),
  inputDescription: 'The user, and changes to them; members left out keep their values.',
  types,
  payload: { user: { model: 'User', description: 'The user as changed.' } },
  resolve: async (viewer, { id, ...changes }, select) => ({
    user: await updateUser(viewer, parseId(id, 'User'), changes, select('user')),
  }),
});

payloadMutation('updateUsers', {
  description: `Changes users (their school's and district's administrators), ${itemByItem}`,
  input: updateUsersSchema,
  inputDescription: 'The changes, one per user.',
  types: { items: UserChangeInput },
  payload: { results },
  resolve: async (viewer, { items }) => updateUsers(viewer, items),
});

payloadMutation('deleteUser', {
  description:
    'Deletes a user with their enrollments, memberships, credentials and the content of their realm; cannot be undone.',
  input: objectIdInput('The user to delete.'),
  inputDescription: 'The user to delete.',
  payload: { deletedUserId: { deleted: 'User', description: 'Global id of the deleted user.' } },
  resolve: async (viewer, { id }) => ({ deletedUserId: (await deleteUser(viewer, parseId(id, 'User'))).id }),
});

payloadMutation('deleteUsers', {
  description: `Deletes users as deleteUser does, ${itemByItem}`,
  input: deleteUsersSchema,
  inputDescription: 'The users to delete.',
  payload: { results },
  resolve: async (viewer, { ids }) => deleteUsers(viewer, ids),
});

payloadMutation('deactivateUser', {
  description:
    "Makes a user inactive (their school's and district's administrators), as the platform's delete does: they cannot sign in, their credentials are refused and their subscriptions end, and they leave lists of people; reactivateUser undoes it.",
  input: deactivateUserSchema,
  inputDescription: 'The user to make inactive, and whether their enrollments are kept.',
  payload: { user: { model: 'User', description: 'The user, now inactive.' } },
  resolve: async (viewer, { id, keepEnrollments }, select) => ({
    user: await deactivateUser(viewer, parseId(id, 'User'), keepEnrollments ?? false, select('user')),
  }),
});

payloadMutation('deactivateUsers', {
  description: `Makes users inactive as deactivateUser does, ${itemByItem}`,
  input: deactivateUsersSchema,
  inputDescription: 'The users to make inactive, and whether their enrollments are kept.',
  payload: { results },
  resolve: async (viewer, { ids, keepEnrollments }) => deactivateUsers(viewer, ids, keepEnrollments ?? false),
});

payloadMutation('reactivateUser', {
  description: "Makes an inactive user active again (their school's and district's administrators).",
  input: objectIdInput('The inactive user to make active again.'),
  inputDescription: 'The inactive user to make active again.',
  payload: { user: { model: 'User', description: 'The user, now active.' } },
  resolve: async (viewer, { id }, select) => ({
    user: await reactivateUser(viewer, parseId(id, 'User'), select('user')),
  }),
});

payloadMutation('reactivateUsers', {
  description: `Makes inactive users active again as reactivateUser does, ${itemByItem}`,
  input: reactivateUsersSchema,
  inputDescription: 'The inactive users to make active again.',
  payload: { results },
  resolve: async (viewer, { ids }) => reactivateUsers(viewer, ids),
});
