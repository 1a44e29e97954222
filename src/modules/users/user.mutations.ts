import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { inputFromSchema } from '../../graphql/inputs';
import { objectMutation, required } from '../../graphql/operations';
import { createUser } from './user.service';
import { RoleEnum } from './user.type';
import { createUserSchema } from './user.validation';

const CreateUserInput = inputFromSchema('CreateUserInput', createUserSchema, 'A new user of a school.', {
  role: RoleEnum,
});

objectMutation('createUser', {
  type: 'User',
  description: 'Creates a user (school and district administrators).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ input: arg(required(CreateUserInput, 'The new user.')) }),
  resolve: (viewer, args, query) => createUser(viewer, args.input, query),
});
