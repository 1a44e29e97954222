import { can } from '../../auth/policy';
import { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { exposeColumns, exposeOptionalText, exposeDatabaseId, exposeReference, nodeId } from '../../graphql/columns';
import { SchoolType } from '../schools/school.type';
import { knownRealm } from '../../auth/realms';
import { itemResultType } from '../../graphql/error-types';
import { pageOf } from '../../graphql/paging';
import { userFacts, userFactsSelection, userPolicy } from './user.policy';
import type { UserResult } from './user.service';

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
    ...exposeColumns(t, 'User', [
      'username',
      'schoolUid',
      'nameFirst',
      'nameLast',
      'gender',
      'gradYear',
      'triggerAdmin',
      'createdAt',
    ]),
    ...exposeOptionalText(t, 'User', ['pictureUrl', 'nameTitle', 'nameMiddle', 'nameFirstPreferred', 'position']),
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
    active: t.boolean({
      description:
        'Whether the account is active; an inactive one cannot sign in and is seen by its administrators only.',
      select: { deactivatedAt: true },
      resolve: (user) => user.deactivatedAt === null,
    }),
    school: exposeReference(t, 'User', 'school', SchoolType),
    building: exposeReference(t, 'User', 'building', SchoolType),
  }),
});

export const UserPage = pageOf('User', 'A page of users.');

const UserItemStatusEnum = builder.enumType('UserItemStatus', {
  description: 'What became of one item of a bulk write of users; /v1 answers the `response_code` named.',
  values: {
    CREATED: { description: 'The user was created (200).' },
    UPDATED: { description: 'The user was changed, or already was as the item says (200).' },
    DELETED: { description: 'The user was deleted (204).' },
    DEACTIVATED: { description: 'The user was made inactive (204).' },
    REACTIVATED: { description: 'The user was made active again (200).' },
    INVALID: { description: 'Refused: an invalid member, listed in `issues` (400).' },
    FORBIDDEN: { description: 'Refused: the viewer may not write it (403).' },
    NOT_FOUND: { description: 'No such user, or one the viewer may not see (404).' },
    CONFLICT: { description: 'Its username or school user id is taken in the school (409).' },
  },
});

export const UserResultType = itemResultType<UserResult>('UserResult', {
  description: 'What became of one item of a bulk write of users.',
  codes: UserItemStatusEnum,
  written: (t) => ({
    user: t.field({
      type: UserType,
      nullable: true,
      description: 'The user as written; null when the item failed, and for a deleted user.',
      resolve: (result) => result.user,
    }),
  }),
});
