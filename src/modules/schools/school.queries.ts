import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { objectQuery } from '../../graphql/operations';
import { schoolPolicy } from './school.policy';

const SchoolPage = pageOf('School', 'A page of schools or buildings.');

objectQuery('school', 'School', schoolPolicy, (selection, id) => db().school.findUnique({ ...selection, where: { id } }));

builder.queryFields((t) => ({
  schools: t.withAuth({ authenticated: true }).field({
    type: SchoolPage,
    description: 'The schools (not buildings) of the viewer\'s district.',
    args: pageArgs,
    resolve: (_root, args, { viewer }) => {
      const where = { districtId: viewer.user.districtId, parentId: null };
      return paged(args, { findMany: (query) => db().school.findMany({ ...query, where }), count: () => db().school.count({ where }) });
    },
  }),
  buildings: t.withAuth({ authenticated: true }).field({
    type: SchoolPage,
    nullable: true,
    description: 'The buildings of a school; null when the school does not exist or is not visible.',
    args: { schoolId: t.arg.id({ required: true, description: 'School id.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const parentId = parseId(args.schoolId, 'schoolId');
      if (!(await can(viewer, schoolPolicy, 'read', parentId))) return null;
      const where = { parentId };
      return paged(args, { findMany: (query) => db().school.findMany({ ...query, where }), count: () => db().school.count({ where }) });
    },
  }),
}));
