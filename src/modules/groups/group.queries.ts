import { isStorableId } from '../../auth/realms';
import { db } from '../../db/database';
import type { Group, Prisma } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import {
  type IdListSource,
  type IdWindow,
  pageArgs,
  pageOf,
  paged,
  pagedById,
  offsetListBeside,
} from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { objectQuery, type PrismaQuery } from '../../graphql/operations';
import { connectionOf, connectionOptions, hiddenUnless, keysetWindow } from '../../graphql/connections';
import type { Viewer } from '../../auth/viewer';
import {
  groupFacts,
  groupFactsSelection,
  groupPolicy,
  readableCategoriesWhere,
  readableGroupsWhere,
  readsEveryGroupOfDistrict,
} from './group.policy';
import { countDistrictGroups, groupsById, readDistrictWindow, rowAndDistrict } from './group.sql';
import { registerNodeVisibility, visibleThrough, visibleThroughAll } from '../../graphql/nodes';
import { can } from '../../auth/policy';
import { userPolicy } from '../users/user.policy';
import { groupMembership, groupMembershipsWhere, listGroupMemberships } from './group-membership.service';

/** An id filter; an id beyond the database's integer range matches nothing (-1) instead of failing the query. */
const idFilter = (value: string, name: string) => {
  // Buildings are School rows: a building's global id is a School's.
  const id = parseId(value, 'School', name);
  return isStorableId(id) ? id : -1;
};

export const GroupPage = pageOf('Group', 'A page of groups.');

type GroupFilters = { buildingId?: string | null; schoolId?: string | null };

/** The school a list is narrowed to, if any. */
const schoolFilter = (args: GroupFilters) => (args.schoolId ? idFilter(args.schoolId, 'schoolId') : null);

/** The groups `groups` and `groupsConnection` list: those of the district the viewer may see, optionally narrowed. */
function groupsWhere(viewer: Viewer, args: GroupFilters): Prisma.GroupWhereInput {
  return {
    AND: [
      readableGroupsWhere(viewer),
      args.buildingId ? { buildingId: idFilter(args.buildingId, 'buildingId') } : {},
      args.schoolId ? { schoolId: idFilter(args.schoolId, 'schoolId') } : {},
    ],
  };
}

/**
 * Whether the schools' group counts answer how many groups `groupsWhere` matches (kept by triggers in the statements
 * that write groups, so as exact as a count of the rows): for a viewer who reads the whole district, unless a building
 * narrows the list. A few rows are read instead of every group of the district.
 */
const countedBySchools = (viewer: Viewer, args: GroupFilters) => readsEveryGroupOfDistrict(viewer) && !args.buildingId;

/** How many groups `groupsWhere` matches. */
async function countGroups(viewer: Viewer, args: GroupFilters): Promise<number> {
  if (!countedBySchools(viewer, args)) return db().group.count({ where: groupsWhere(viewer, args) });
  // Sent directly: every list request of a district administrator sends it (see `directQuery`).
  return countDistrictGroups(viewer.user.districtId, schoolFilter(args));
}

/**
 * A window from the start of a district administrator's list and its total, in one statement (so both are of one
 * snapshot), with the rows as Prisma reads them. Sent directly, since every list request of a district administrator
 * sends it: no Prisma mapping of the page.
 */
const groupsWithTotal = (viewer: Viewer, args: GroupFilters, window: IdWindow, selection: PrismaQuery) =>
  readDistrictWindow(
    { districtId: viewer.user.districtId, schoolId: schoolFilter(args), take: window.take, skip: window.skip },
    selection,
  );

/** The list `groups` pages: ordered by id and counted exactly, so its pages are read from the nearer end. */
function groupsSource(viewer: Viewer, args: GroupFilters): IdListSource<Group> {
  const where = groupsWhere(viewer, args);
  return {
    findMany: (query) => db().group.findMany({ ...query, where: { AND: [where, query.where] } }),
    findIds: (window) =>
      db().group.findMany({ ...window, where: { AND: [where, window.where] }, select: { id: true } }),
    count: () => countGroups(viewer, args),
    findManyCounted: (query: PrismaQuery, window) =>
      countedBySchools(viewer, args) && rowAndDistrict(query)
        ? groupsWithTotal(viewer, args, window, query)
        : undefined,
  };
}

const GroupCategoryPage = pageOf('GroupCategory', 'A page of group categories.');

objectQuery('group', 'Group', groupPolicy, {
  type: 'GROUP',
  selection: groupFactsSelection,
  facts: groupFacts,
  direct: groupsById,
});

builder.queryFields((t) => ({
  groups: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('groupsConnection'),
    type: GroupPage,
    description: "Groups of the viewer's district that the viewer may see.",
    args: {
      ...pageArgs,
      buildingId: t.arg.id({ description: 'Only groups of this building.' }),
      schoolId: t.arg.id({ description: 'Only groups of this school.' }),
    },
    resolve: (_root, args, { viewer }) => pagedById(args, groupsSource(viewer, args)),
  }),
  groupsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'Group',
      ...connectionOptions,
      description: 'The groups `groups` lists, as a Relay connection in the same order (ascending ids).',
      args: {
        buildingId: t.arg.id({ description: 'Only groups of this building.' }),
        schoolId: t.arg.id({ description: 'Only groups of this school.' }),
      },
      resolve: (query, _root, args, { viewer }) => db().group.findMany(keysetWindow(query, groupsWhere(viewer, args))),
      totalCount: (_root, args, { viewer }) => countGroups(viewer, args),
    },
    connectionOf('Group'),
  ),
  groupCategories: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('groupCategoriesConnection'),
    type: GroupCategoryPage,
    description: "The group categories of the viewer's district.",
    args: pageArgs,
    resolve: (_root, args, { viewer }) => {
      const where = readableCategoriesWhere(viewer);
      return paged(args, {
        findMany: (query) => db().groupCategory.findMany({ ...query, where }),
        count: () => db().groupCategory.count({ where }),
      });
    },
  }),
  groupCategoriesConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GroupCategory',
      ...connectionOptions,
      description: 'The categories `groupCategories` lists, as a Relay connection in the same order (ascending ids).',
      resolve: (query, _root, _args, { viewer }) =>
        db().groupCategory.findMany(keysetWindow(query, readableCategoriesWhere(viewer))),
      totalCount: (_root, _args, { viewer }) => db().groupCategory.count({ where: readableCategoriesWhere(viewer) }),
    },
    connectionOf('GroupCategory'),
  ),
}));

// As `groupCategories`: the categories of the viewer's district.
registerNodeVisibility(
  'GroupCategory',
  visibleThrough(
    'GroupCategory',
    { select: { districtId: true }, of: (row: { id: number; districtId: number }) => row.districtId },
    (viewer, districtId) => can(viewer, groupPolicy, 'readCategories', districtId),
  ),
);
// As `Group.members`: a membership of a group the viewer reads, of a user the viewer may see.
registerNodeVisibility(
  'GroupMembership',
  visibleThroughAll<{ id: number; groupId: number; userId: number }>('GroupMembership', [
    {
      select: { groupId: true },
      of: (row) => row.groupId,
      readable: (viewer, groupId) => can(viewer, groupPolicy, 'read', groupId),
    },
    {
      select: { userId: true },
      of: (row) => row.userId,
      readable: (viewer, userId) => can(viewer, userPolicy, 'read', userId),
    },
  ]),
);

const GroupMembershipPage = pageOf('GroupMembership', 'A page of the memberships of a group, by id.');

const membershipArgs = builder.args((t) => ({
  groupId: t.id({ required: true, description: 'The group.' }),
  admin: t.boolean({ description: 'Only group administrators (true), or only the others (false).' }),
  userIds: t.idList({ description: 'Only the memberships of these users.' }),
}));
const membershipGroup = (id: string | number) => parseId(id, 'Group', 'groupId');
const membershipFilter = (args: { admin?: boolean | null; userIds?: readonly (string | number)[] | null }) => ({
  admin: args.admin,
  userIds: args.userIds?.map((id) => parseId(id, 'User', 'userIds')),
});

// A group's memberships as /v1 lists them (its enrollments), with filters `Group.membersConnection` has not.
builder.queryFields((t) => ({
  groupMemberships: t.withAuth({ authenticated: true }).field({
    ...offsetListBeside('groupMembershipsConnection'),
    type: GroupMembershipPage,
    nullable: true,
    description:
      "A group's memberships by id, of the users the viewer may see, for whoever reads the group; null when the group " +
      'does not exist or is hidden.',
    args: { ...membershipArgs, ...pageArgs },
    resolve: (_root, { groupId, admin, userIds, ...page }, { viewer }) =>
      listGroupMemberships(viewer, membershipGroup(groupId), membershipFilter({ admin, userIds }), page),
  }),
  groupMembershipsConnection: t.withAuth({ authenticated: true }).prismaConnection(
    {
      type: 'GroupMembership',
      ...connectionOptions,
      ...hiddenUnless((args: { groupId: string | number }, { viewer }) =>
        can(viewer, groupPolicy, 'read', membershipGroup(args.groupId)),
      ),
      description:
        'The memberships `groupMemberships` pages, as a Relay connection in the same order; null when the group does ' +
        'not exist or is hidden.',
      args: membershipArgs,
      resolve: (query, _root, { groupId, ...filter }, { viewer }) =>
        db().groupMembership.findMany(
          keysetWindow(query, groupMembershipsWhere(viewer, membershipGroup(groupId), membershipFilter(filter))),
        ),
      totalCount: (_root, { groupId, ...filter }, { viewer }) =>
        db().groupMembership.count({
          where: groupMembershipsWhere(viewer, membershipGroup(groupId), membershipFilter(filter)),
        }),
    },
    connectionOf('GroupMembership'),
  ),
  groupMembership: t.withAuth({ authenticated: true }).prismaField({
    type: 'GroupMembership',
    nullable: true,
    description: 'A membership of a group; null when it, or the group, does not exist or is hidden from the viewer.',
    args: {
      groupId: t.arg.id({ required: true, description: 'The group.' }),
      id: t.arg.id({ required: true, description: 'Membership id.' }),
    },
    resolve: (query, _root, args, { viewer }) =>
      groupMembership(viewer, membershipGroup(args.groupId), parseId(args.id, 'GroupMembership'), query),
  }),
}));
