import { can } from '../../auth/policy';
import { db } from '../../db/database';
import { builder } from '../../graphql/builder';
import { pageArgs, pageOf, paged, offsetListBeside } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { objectQuery } from '../../graphql/operations';
import { readableSchoolsWhere, schoolPolicy } from './school.policy';
import { connectionOf, connectionOptions, hiddenUnless, keysetWindow } from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';

const SchoolPage = pageOf('School', 'A page of schools or buildings.');

/** The schools of the viewer's district, without their buildings. */
const schoolsOf = (viewer: Viewer) => ({ parentId: null, ...readableSchoolsWhere(viewer) });

/** The id of a school whose buildings the viewer may list; null when it does not exist or is not visible. */
async function visibleSchool(viewer: Viewer, schoolId: string) {
  const parentId = parseId(schoolId, 'School', 'schoolId');
  return (await can(viewer, schoolPolicy, 'read', parentId)) ? parentId : null;
}

objectQuery('school', 'School', schoolPolicy);

builder.queryFields((t) => ({
  schools: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('schoolsConnection'),
    type: SchoolPage,
    description: "The schools (not buildings) of the viewer's district.",
    args: pageArgs,
    resolve: (_root, args, { viewer }) => {
      const where = schoolsOf(viewer);
      return paged(args, {
        findMany: (query) => db().school.findMany({ ...query, where }),
        count: () => db().school.count({ where }),
      });
    },
  }),
  buildings: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('buildingsConnection'),
    type: SchoolPage,
    nullable: true,
    description: 'The buildings of a school; null when the school does not exist or is not visible.',
    args: { schoolId: t.arg.id({ required: true, description: 'School id.' }), ...pageArgs },
    resolve: async (_root, args, { viewer }) => {
      const parentId = await visibleSchool(viewer, args.schoolId);
      if (parentId === null) return null;
      const where = { parentId };
      return paged(args, {
        findMany: (query) => db().school.findMany({ ...query, where }),
        count: () => db().school.count({ where }),
      });
    },
  }),
  schoolsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'School',
      ...connectionOptions,
      description: 'The schools `schools` lists, as a Relay connection in the same order (ascending ids).',
      resolve: (query, _root, _args, { viewer }) => db().school.findMany(keysetWindow(query, schoolsOf(viewer))),
      totalCount: (_root, _args, { viewer }) => db().school.count({ where: schoolsOf(viewer) }),
    },
    connectionOf('School'),
  ),
  buildingsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'School',
      ...connectionOptions,
      ...hiddenUnless(
        async (args: { schoolId: string }, { viewer }) => (await visibleSchool(viewer, args.schoolId)) !== null,
      ),
      description:
        'The buildings `buildings` lists, as a Relay connection in the same order; null when the school does not exist or is not visible.',
      args: { schoolId: t.arg.id({ required: true, description: 'School id.' }) },
      resolve: (query, _root, args) =>
        db().school.findMany(keysetWindow(query, { parentId: parseId(args.schoolId, 'School', 'schoolId') })),
      totalCount: (_root, args) =>
        db().school.count({ where: { parentId: parseId(args.schoolId, 'School', 'schoolId') } }),
    },
    connectionOf('School'),
  ),
}));
