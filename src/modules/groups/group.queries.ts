import { isStorableId } from '../../auth/realms';
import { db, directQuery } from '../../db/database';
import type { Group, Prisma } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import { type IdListSource, pageArgs, pageOf, paged, pagedById } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { objectQuery } from '../../graphql/operations';
import { connectionOptions, describedTotalCount, keysetWindow } from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';
import { groupFacts, groupFactsSelection, groupPolicy, readableGroupsWhere, readsEveryGroupOfDistrict } from './group.policy';
import { registerNodeVisibility, visibleThrough, visibleThroughAll } from '../../graphql/nodes';
import { can } from '../../auth/policy';
import { userPolicy } from '../users/user.policy';

/** An id filter; an id beyond the database's integer range matches nothing (-1) instead of failing the query. */
const idFilter = (value: string, name: string) => {
  // Buildings are School rows: a building's global id is a School's.
  const id = parseId(value, 'School', name);
  return isStorableId(id) ? id : -1;
};

const GroupPage = pageOf('Group', 'A page of groups.');

/** The groups `groups` and `groupsConnection` list: those of the district the viewer may see, optionally narrowed. */
function groupsWhere(viewer: Viewer, args: { buildingId?: string | null; schoolId?: string | null }): Prisma.GroupWhereInput {
  return {
    AND: [
      readableGroupsWhere(viewer),
      args.buildingId ? { buildingId: idFilter(args.buildingId, 'buildingId') } : {},
      args.schoolId ? { schoolId: idFilter(args.schoolId, 'schoolId') } : {},
    ],
  };
}

/**
 * How many groups `groupsWhere` matches. For a viewer who reads the whole district, unless a building narrows the list,
 * the schools' group counts answer it (kept by triggers in the statements that write groups, so as exact as a count
 * of the rows): a few rows read instead of every group of the district.
 */
async function countGroups(viewer: Viewer, args: { buildingId?: string | null; schoolId?: string | null }): Promise<number> {
  if (!readsEveryGroupOfDistrict(viewer) || args.buildingId) return db().group.count({ where: groupsWhere(viewer, args) });
  // Sent directly: every list request of a district administrator sends it (see `directQuery`).
  const schoolId = args.schoolId ? idFilter(args.schoolId, 'schoolId') : null;
  const [{ total }] = await directQuery<{ total: number }>(
    `SELECT COALESCE(SUM(counts.count), 0)::int4 AS total
     FROM school_group_counts counts JOIN schools ON schools.id = counts."schoolId"
     WHERE schools."districtId" = $1 AND ($2::int4 IS NULL OR counts."schoolId" = $2::int4)`,
    [viewer.user.districtId, schoolId],
  );
  return total;
}

/** The list `groups` pages: ordered by id and counted exactly, so its pages are read from the nearer end. */
function groupsSource(viewer: Viewer, args: { buildingId?: string | null; schoolId?: string | null }): IdListSource<Group> {
  const where = groupsWhere(viewer, args);
  return {
    findMany: (query) => db().group.findMany({ ...query, where: { AND: [where, query.where] } }),
    findIds: (window) => db().group.findMany({ ...window, where: { AND: [where, window.where] }, select: { id: true } }),
    count: () => countGroups(viewer, args),
  };
}

const GroupCategoryPage = pageOf('GroupCategory', 'A page of group categories.');

objectQuery('group', 'Group', groupPolicy, {
  type: 'GROUP',
  selection: groupFactsSelection,
  facts: groupFacts,
});

builder.queryFields((t) => ({
  groups: t.withAuth({ authenticated: true }).field({
    type: GroupPage,
    description: 'Groups of the viewer\'s district that the viewer may see.',
    args: {
      ...pageArgs,
      buildingId: t.arg.id({ description: 'Only groups of this building.' }),
      schoolId: t.arg.id({ description: 'Only groups of this school.' }),
    },
    resolve: (_root, args, { viewer }) => pagedById(args, groupsSource(viewer, args)),
  }),
  groupsConnection: t.withAuth({ authenticated: true }).prismaConnection({
    type: 'Group',
    ...connectionOptions,
    description: 'The groups `groups` lists, as a Relay connection in the same order (ascending ids).',
    args: {
      buildingId: t.arg.id({ description: 'Only groups of this building.' }),
      schoolId: t.arg.id({ description: 'Only groups of this school.' }),
    },
    resolve: (query, _root, args, { viewer }) => db().group.findMany(keysetWindow(query, groupsWhere(viewer, args))),
    totalCount: (_root, args, { viewer }) => countGroups(viewer, args),
  }, describedTotalCount),
  groupCategories: t.withAuth({ authenticated: true }).field({
    type: GroupCategoryPage,
    description: 'The group categories of the viewer\'s district.',
    args: pageArgs,
    resolve: (_root, args, { viewer }) => {
      const where = { districtId: viewer.user.districtId };
      return paged(args, {
        findMany: (query) => db().groupCategory.findMany({ ...query, where }),
        count: () => db().groupCategory.count({ where }),
      });
    },
  }),
  groupCategoriesConnection: t.withAuth({ authenticated: true }).prismaConnection({
    type: 'GroupCategory',
    ...connectionOptions,
    description: 'The categories `groupCategories` lists, as a Relay connection in the same order (ascending ids).',
    resolve: (query, _root, _args, { viewer }) => db().groupCategory.findMany(keysetWindow(query, { districtId: viewer.user.districtId })),
    totalCount: (_root, _args, { viewer }) => db().groupCategory.count({ where: { districtId: viewer.user.districtId } }),
  }, describedTotalCount),
}));

// As `groupCategories`: the categories of the viewer's district.
registerNodeVisibility('GroupCategory', visibleThrough('GroupCategory', { select: { districtId: true }, of: (row: { id: number; districtId: number }) => row.districtId }, async (viewer, districtId) => districtId === viewer.user.districtId));
// As `Group.members`: a membership of a group the viewer reads, of a user the viewer may see.
registerNodeVisibility(
  'GroupMembership',
  visibleThroughAll<{ id: number; groupId: number; userId: number }>('GroupMembership', [
    { select: { groupId: true }, of: (row) => row.groupId, readable: (viewer, groupId) => can(viewer, groupPolicy, 'read', groupId) },
    { select: { userId: true }, of: (row) => row.userId, readable: (viewer, userId) => can(viewer, userPolicy, 'read', userId) },
  ]),
);
