import { can } from '../../auth/policy';
import { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, exposeReference, nodeId } from '../../graphql/columns';
import { SchoolType } from '../schools/school.type';
import { knownRealm } from '../../auth/realms';
import { userFacts, userFactsSelection, userPolicy } from './user.policy';

export const RoleEnum = builder.enumType(Role, {
  name: 'Role',
  description: 'What a user is in their school.',
  values: {
    DISTRICT_ADMIN: { description: 'Administers the whole district: its schools, people and settings.' },
    SCHOOL_ADMIN: { description: 'Administers one school: its courses, sections, groups and people.' },
    TEACHER: { description: 'Teaches course sections: materials, grades and attendance.' },
    STUDENT: { description: 'Takes part in sections and groups; reads their own grades and attendance.' },
    PARENT: { description: 'A parent or guardian, linked to their children: reads their grades and attendance.' },
  },
});

export const UserType = builder.prismaNode('User', {
  id: nodeId,
  fields: (t) => ({
    databaseId: exposeDatabaseId(t),
    ...exposeColumns(t, 'User', ['username', 'schoolUid', 'nameFirst', 'nameLast', 'triggerAdmin', 'createdAt']),
    ...exposeOptionalText(t, 'User', ['pictureUrl']),
    nameDisplay: t.string({
      description: 'Name as shown to others.',
      select: { nameFirst: true, nameLast: true },
      resolve: (user) => `${user.nameFirst} ${user.nameLast}`.trim(),
    }),
    email: t.string({
      nullable: true,
      description: 'Primary email; null when there is none, and for others than the user and their administrators.',
      select: { email: true, ...userFactsSelection },
      resolve: async (user, _args, { viewer }) => {
        if (!viewer) return null;
        knownRealm(viewer, { type: 'USER', id: user.id }, userFacts(user));
        return (await can(viewer, userPolicy, 'readEmail', user.id)) ? user.email || null : null;
      },
    }),
    role: t.expose('role', { type: RoleEnum }),
    school: exposeReference(t, 'User', 'school', SchoolType),
    building: exposeReference(t, 'User', 'building', SchoolType),
  }),
});
