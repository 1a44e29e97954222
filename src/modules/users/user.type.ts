import { can } from '../../auth/policy';
import { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns } from '../../graphql/columns';
import { knownRealm } from '../../auth/realms';
import { userFacts, userFactsSelection, userPolicy } from './user.policy';

export const RoleEnum = builder.enumType(Role, { name: 'Role', description: 'What a user is in their school.' });

export const UserType = builder.prismaObject('User', {
  fields: (t) => ({
    ...exposeColumns(t, 'User', [
      'id', 'username', 'schoolUid', 'nameFirst', 'nameLast', 'pictureUrl', 'triggerAdmin', 'createdAt'
    ]),
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
    role: t.expose('role', { type: RoleEnum }),
    school: t.relation('school'),
    building: t.relation('building', { nullable: true }),
  }),
});
