import { payloadMutation } from '../../graphql/payloads';
import { createUser } from './user.service';
import { RoleEnum } from './user.type';
import { createUserSchema } from './user.validation';

payloadMutation('createUser', {
  description: 'Creates a user (school and district administrators).',
  input: createUserSchema,
  inputDescription: 'A new user of a school.',
  types: { role: RoleEnum },
  payload: { user: { model: 'User', description: 'The new user.' } },
  resolve: async (viewer, input, select) => ({ user: await createUser(viewer, input, select('user')) }),
});
