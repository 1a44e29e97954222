import { can } from '../../auth/policy';
import { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { knownRealm } from '../../auth/realms';
import { userFacts, userFactsSelection, userPolicy } from './user.policy';

export const RoleEnum = builder.enumType(Role, { name: 'Role', description: 'What a user is in their school.' });

export const UserType = builder.prismaObject('User', {
  description: 'A person with an account: administrator, teacher, student or parent.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'User id.' }),
    username: t.exposeString('username', { description: 'Login name, unique within the school.' }),
    schoolUid: t.exposeString('schoolUid', { nullable: true, description: 'The school\'s own id for the user.' }),
    nameFirst: t.exposeString('nameFirst', { description: 'First name.' }),
    nameLast: t.exposeString('nameLast', { description: 'Last name.' }),
    nameDisplay: t.string({
      description: 'Name as shown to others.',
      select: { nameFirst: true, nameLast: true },
      resolve: (user) => `${user.nameFirst} ${user.nameLast}`.trim(),
    }),
    email: t.string({
      nullable: true,
      description: 'Primary email; only the user and their administrators see it.',
      select: { email: true, ...userFactsSelection },
      resolve: async (user, _args, { viewer }) => {
        if (!viewer) return null;
        knownRealm(viewer, { type: 'USER', id: user.id }, userFacts(user));
        return (await can(viewer, userPolicy, 'readEmail', user.id)) ? user.email : null;
      },
    }),
    pictureUrl: t.exposeString('pictureUrl', { description: 'Profile picture URL.' }),
    role: t.expose('role', { type: RoleEnum, description: 'Role in the school.' }),
    triggerAdmin: t.exposeBoolean('triggerAdmin', { description: 'Whether the user may administer webhook triggers.' }),
    school: t.relation('school', { description: 'The school the user belongs to.' }),
    building: t.relation('building', { nullable: true, description: 'The building the user belongs to, if any.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was created.' }),
  }),
});
