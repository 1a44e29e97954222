import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { parseId } from '../../graphql/realm';
import { findIfVisible } from '../../graphql/visible';
import { userPolicy } from './user.policy';

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
      return findIfVisible(query, can(viewer, userPolicy, 'read', id), (selection) =>
        db().user.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
}));
