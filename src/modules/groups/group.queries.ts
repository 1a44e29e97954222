import { isDeepStrictEqual } from 'node:util';
import { isStorableId } from '../../auth/realms';
import { db, directQuery } from '../../db/database';
import { type Group, Prisma } from '../../generated/prisma/client';
import { builder } from '../../graphql/builder';
import { type IdListSource, type IdWindow, pageArgs, pageOf, paged, pagedById } from '../../graphql/paging';
import { parseId } from '../../graphql/realm';
import { objectQuery, type PrismaQuery } from '../../graphql/operations';
import type { DirectRows } from '../../graphql/reads-by-id';
import { perTurnLoader } from '../../core/per-turn-loader';
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

/**
 * The groups of district `district`, or of school `school` alone when it is not null (SQL expressions: parameters, or
 * the columns of a window asked for): the sum of their schools' counts.
 */
const districtGroupTotal = (district: string, school: string) => `SELECT COALESCE(SUM(counts.count), 0)::int4 AS total
  FROM school_group_counts counts JOIN schools ON schools.id = counts."schoolId"
  WHERE schools."districtId" = ${district} AND (${school} IS NULL OR counts."schoolId" = ${school})`;

/** How many groups `groupsWhere` matches. */
async function countGroups(viewer: Viewer, args: GroupFilters): Promise<number> {
  if (!countedBySchools(viewer, args)) return db().group.count({ where: groupsWhere(viewer, args) });
  // Sent directly: every list request of a district administrator sends it (see `directQuery`).
  const [{ total }] = await directQuery<{ total: number }>(districtGroupTotal('$1', '$2::int4'), [viewer.user.districtId, schoolFilter(args)]);
  return total;
}

/** The facts' relation of a group's access rule: its school's district. */
const schoolDistrict = { select: { districtId: true } };

/**
 * Whether a Prisma selection asks only for a group's columns and its school's district, the access rule's facts
 * (Pothos selects relations with `include`): what the direct readings and a create's INSERT answer, and all that `/v1`
 * asks.
 */
export const rowAndDistrict = (selection: PrismaQuery) =>
  !selection.select && Object.entries(selection.include ?? {}).every(([relation, value]) => relation === 'school' && isDeepStrictEqual(value, schoolDistrict));

/**
 * A group's columns, named rather than `*`: the direct readings are prepared statements (`directQuery`), whose result
 * must keep its shape when a migration adds a column while an instance of the version before still runs.
 */
export const groupColumnNames = Object.values(Prisma.GroupScalarFieldEnum);
const groupColumns = groupColumnNames.map((column) => `groups."${column}"`).join(', ');

/** What the direct readings select: every column of a group, and its school's district. */
const groupRowColumns = `${groupColumns}, schools."districtId" AS "schoolDistrictId"`;

/** Groups with their schools, to read `groupRowColumns` from. */
const groupRows = `SELECT ${groupRowColumns} FROM groups JOIN schools ON schools.id = groups."schoolId"`;

/**
 * A row of `groupRows` as Prisma reads it for `selection`: the school's district only when asked. The columns Prisma
 * would not carry stay on it, and nothing reads them. The school goes into a copy whose literal names it first: a
 * property added to the driver's row, or after a spread, gives the row a hidden class of its own on Node 20, which
 * keeps the row (and what refers to it) until the next full collection (docs/performance.md, "Fourteenth round").
 */
function asPrismaRow(row: Group & { schoolDistrictId: number }, selection: PrismaQuery): Group {
  if (!selection.include?.school) return row;
  const withSchool: Group & { school: { districtId: number } } = { school: { districtId: row.schoolDistrictId }, ...row };
  return withSchool;
}

/**
 * Groups by id read directly: every `GET /v1/groups/{id}` and `group(id)` that asks no relation reads its row this
 * way, where Prisma's client costs more than the statement.
 */
const groupsById: DirectRows = {
  answers: rowAndDistrict,
  byIds: async (ids, selection) =>
    (await directQuery<Group & { schoolDistrictId: number }>(`${groupRows} WHERE groups.id = ANY($1::int4[])`, [ids])).map((row) => asPrismaRow(row, selection)),
};

/**
 * The first `take + skip` groups of each school of a window's district (or of its school alone, when not null), as
 * `groupRows` reads them: the window is among them. Read school by school through the (schoolId, id) index, however few
 * of the table's groups are the district's; ordered by the whole table's id, PostgreSQL would walk past every other
 * district's groups to find them (100 ms for a district of 30 groups after a million others). The school is matched
 * with BETWEEN, not `=`: from an equality the planner drops `schoolId` from the order and walks the primary key again.
 */
const schoolsFirstGroups = `SELECT ${groupRowColumns} FROM schools
  CROSS JOIN LATERAL (
    SELECT ${groupColumns} FROM groups WHERE groups."schoolId" BETWEEN schools.id AND schools.id ORDER BY groups."schoolId", groups.id LIMIT windows.take + windows.skip
  ) groups
  WHERE schools."districtId" = windows."districtId" AND (windows."schoolId" IS NULL OR schools.id = windows."schoolId")`;

/** A window of a district administrator's list: of district `districtId`, or of one school of it when not null. */
interface DistrictWindow {
  districtId: number;
  schoolId: number | null;
  take: number;
  skip: number;
}

type WindowRow = Group & { schoolDistrictId: number; listTotal: number; listWindow: number };

/**
 * Windows of district administrators' lists, each with its total, in one statement: each window (a row of `windows`,
 * numbered in the order asked) its own total and rows, both of one snapshot. The rows come as `groupRows` reads them,
 * and a window with no rows (past the end) still comes with its total.
 */
const windowsWithTotals = `WITH windows AS (
    SELECT * FROM unnest($1::int4[], $2::int4[], $3::int4[], $4::int4[]) WITH ORDINALITY AS asked("districtId", "schoolId", take, skip, number)
  )
  SELECT windows.number::int4 AS "listWindow", total.total AS "listTotal", page.* FROM windows
  CROSS JOIN LATERAL (${districtGroupTotal('windows."districtId"', 'windows."schoolId"')}) total
  LEFT JOIN LATERAL (
    ${schoolsFirstGroups}
    ORDER BY groups.id LIMIT windows.take OFFSET windows.skip
  ) page ON true
  ORDER BY windows.number, page.id`;

/**
 * The windows the list requests of one turn ask for, read with one statement (see `perTurnLoader`): on a busy server
 * the round trip costs a request more than its rows (docs/performance.md, thirteenth round). Every window is read by
 * itself, after its request arrived; two requests for the same page share nothing but the statement.
 */
async function readWindowsTogether(windows: readonly DistrictWindow[]) {
  const found = await directQuery<WindowRow>(windowsWithTotals, [
    windows.map((window) => window.districtId),
    windows.map((window) => window.schoolId),
    windows.map((window) => window.take),
    windows.map((window) => window.skip),
  ]);
  const answers = windows.map(() => ({ rows: [] as WindowRow[], total: 0 }));
  for (const row of found) {
    const window = answers[row.listWindow - 1]!;
    window.total = row.listTotal;
    if (row.id !== null) window.rows.push(row);
  }
  return answers;
}

// A statement's rows are at most this many windows of the largest page.
const districtWindows = perTurnLoader(readWindowsTogether, { maxBatchSize: 50 });

/**
 * A window from the start of a district administrator's list and its total, in one statement (so both are of one
 * snapshot), shared with the other such windows asked in the same turn, with the rows as Prisma reads them. Sent
 * directly, since every list request of a district administrator sends it: no Prisma mapping of the page.
 */
async function groupsWithTotal(viewer: Viewer, args: GroupFilters, window: IdWindow, selection: PrismaQuery) {
  const { rows, total } = await districtWindows.load({ districtId: viewer.user.districtId, schoolId: schoolFilter(args), take: window.take, skip: window.skip });
  return { rows: rows.map((row) => asPrismaRow(row, selection)), total };
}

/** The list `groups` pages: ordered by id and counted exactly, so its pages are read from the nearer end. */
function groupsSource(viewer: Viewer, args: GroupFilters): IdListSource<Group> {
  const where = groupsWhere(viewer, args);
  return {
    findMany: (query) => db().group.findMany({ ...query, where: { AND: [where, query.where] } }),
    findIds: (window) => db().group.findMany({ ...window, where: { AND: [where, window.where] }, select: { id: true } }),
    count: () => countGroups(viewer, args),
    findManyCounted: (query: PrismaQuery, window) =>
      countedBySchools(viewer, args) && rowAndDistrict(query) ? groupsWithTotal(viewer, args, window, query) : undefined,
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
