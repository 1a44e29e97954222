import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { parseId } from '../../graphql/realm';
import { findIfVisible } from '../../graphql/visible';
import { sectionPolicy } from './roster.policy';

builder.queryFields((t) => ({
  section: t.withAuth({ authenticated: true }).prismaField({
    type: 'Section',
    nullable: true,
    description: 'A section the viewer is enrolled in or administers; null otherwise.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id);
      return findIfVisible(query, can(viewer, sectionPolicy, 'read', id), (selection) =>
        db().section.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
}));
