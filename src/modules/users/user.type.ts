import { canRead } from '../../auth/permissions';
import { db } from '../../db/database';
import { Role } from '../../generated/prisma/enums';
import { builder } from '../../graphql/builder';
import { findIfVisible } from '../../graphql/visible';
import { parseId } from '../../graphql/realm';

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
      select: { email: true, schoolId: true, school: { select: { districtId: true } } },
      resolve: (user, _args, { viewer }) =>
        viewer && (viewer.id === user.id || viewer.isSchoolAdmin(user.school.districtId, user.schoolId)) ? user.email : null,
    }),
    pictureUrl: t.exposeString('pictureUrl', { description: 'Profile picture URL.' }),
    role: t.expose('role', { type: RoleEnum, description: 'Role in the school.' }),
    triggerAdmin: t.exposeBoolean('triggerAdmin', { description: 'Whether the user may administer webhook triggers.' }),
    school: t.relation('school', { description: 'The school the user belongs to.' }),
    building: t.relation('building', { nullable: true, description: 'The building the user belongs to, if any.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the account was created.' }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    description: 'The authenticated user.',
    resolve: (query, _root, _args, { viewer }) => db().user.findUniqueOrThrow({ ...query, where: { id: viewer.id } }),
  }),
  user: t.withAuth({ authenticated: true }).prismaField({
    type: 'User',
    nullable: true,
    description: 'A user of the viewer\'s school (any user of the district for district admins); null otherwise.',
    args: { id: t.arg.id({ required: true, description: 'User id.' }) },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id);
      return findIfVisible(query, canRead(viewer, { type: 'USER', id }), (selection) =>
        db().user.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
}));
