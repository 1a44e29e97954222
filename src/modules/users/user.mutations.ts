import { builder } from '../../graphql/builder';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import { objectMutation, required } from '../../graphql/operations';
import { createUser } from './user.service';
import { RoleEnum } from './user.type';

const CreateUserInput = builder.inputType('CreateUserInput', {
  description: 'A new user of a school.',
  fields: (t) => ({
    schoolId: t.id({ description: 'School; the viewer\'s when left out.' }),
    buildingId: t.id({ description: 'Building of that school.' }),
    username: t.string({ required: true, description: 'Login name, unique in the school.' }),
    schoolUid: t.string({ description: 'The school\'s own id for the user, unique in the school.' }),
    nameFirst: t.string({ required: true, description: 'First name.' }),
    nameLast: t.string({ required: true, description: 'Last name.' }),
    email: t.string({ description: 'Primary email.' }),
    role: t.field({ type: RoleEnum, required: true, description: 'Role in the school.' }),
    triggerAdmin: t.boolean({ description: 'Access to webhook trigger administration; for staff only (a student or parent with it is a ValidationError). Granted by district administrators.' }),
  }),
});

objectMutation('createUser', {
  type: 'User',
  description: 'Creates a user (school and district administrators).',
  errors: [ValidationError, NotFoundError, ConflictError],
  args: (arg) => ({ input: arg(required(CreateUserInput, 'The new user.')) }),
  resolve: (viewer, args, query) => createUser(viewer, args.input, query),
});
