import { canRead } from '../../auth/permissions';
import { builder } from '../../graphql/builder';
import { findIfVisible } from '../../graphql/visible';
import { pageArgs, pageOf, paged } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { db } from '../../db/database';

const SchoolPage = pageOf('School', 'School', 'A page of schools or buildings.');

builder.queryFields((t) => ({
  school: t.withAuth({ authenticated: true }).prismaField({
    type: 'School',
    nullable: true,
    description: 'A school or building of the viewer\'s district; null when it does not exist or is not visible.',
    args: { id: t.arg.id({ required: true, description: 'School id.' }) },
    resolve: (query, _root, args, { viewer }) => {
      const id = parseId(args.id);
      return findIfVisible(query, canRead(viewer, { type: 'SCHOOL', id }), (selection) =>
        db().school.findUnique({ ...selection, where: { id } }),
      );
    },
  }),
  schools: t.withAuth({ authenticated: true }).field({
    type: SchoolPage,
    description: 'The schools (not buildings) of the viewer\'s district.',
    args: pageArgs,
    resolve: (_root, args, { viewer }) => {
      const where = { districtId: viewer.user.districtId, parentId: null };
      return paged(
        args,
        (query, window) => db().school.findMany({ ...query, where, orderBy: { id: 'asc' }, ...window }),
        () => db().school.count({ where }),
      );
    },
  }),
  buildings: t.withAuth({ authenticated: true }).field({
    type: SchoolPage,
    nullable: true,
    description: 'The buildings of a school; null when the school does not exist or is not visible.',
    args: { schoolId: t.arg.id({ required: true, description: 'School id.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const parentId = parseId(args.schoolId, 'schoolId');
      if (!(await canRead(viewer, { type: 'SCHOOL', id: parentId }))) return null;
      const where = { parentId };
      return paged(
        args,
        (query, window) => db().school.findMany({ ...query, where, orderBy: { id: 'asc' }, ...window }),
        () => db().school.count({ where }),
      );
    },
  }),
}));
