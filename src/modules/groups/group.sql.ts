/**
 * The groups' hand-written SQL: the hot path's statements that Prisma's client does not send (docs/adding-a-resource.md,
 * "Hand-written SQL"). Every reading answers exactly as Prisma's client would for the same selection, which
 * test/hot-path/group-sql.test.ts holds it to row by row.
 */
import { isDeepStrictEqual } from 'node:util';
import { perTurnLoader } from '../../db/per-turn-loader';
import { directQuery } from '../../db/database';
import { insertReturning } from '../../db/insert';
import type { OneStatementCreate } from '../../outbox/record';
import { type Group, Prisma } from '../../generated/prisma/client';
import type { PrismaQuery } from '../../graphql/operations';
import type { DirectRows } from '../../graphql/reads-by-id';

/** The facts' relation of a group's access rule: its school's district. */
const schoolDistrict = { select: { districtId: true } };

/**
 * Whether a Prisma selection asks only for a group's columns and its school's district, the access rule's facts
 * (Pothos selects relations with `include`): what the direct readings and a create's INSERT answer, and all that `/v1`
 * asks.
 */
export const rowAndDistrict = (selection: PrismaQuery) =>
  !selection.select &&
  Object.entries(selection.include ?? {}).every(
    ([relation, value]) => relation === 'school' && isDeepStrictEqual(value, schoolDistrict),
  );

/**
 * A group's columns, named rather than `*`: the direct readings are prepared statements (`directQuery`), whose result
 * must keep its shape when a migration adds a column while an instance of the version before still runs.
 */
const groupColumnNames = Object.values(Prisma.GroupScalarFieldEnum);
const groupColumns = groupColumnNames.map((column) => `groups."${column}"`).join(', ');

/** What the direct readings select: every column of a group, and its school's district. */
const groupRowColumns = `${groupColumns}, schools."districtId" AS "schoolDistrictId"`;

/** Groups with their schools, to read `groupRowColumns` from. */
const groupRows = `SELECT ${groupRowColumns} FROM groups JOIN schools ON schools.id = groups."schoolId"`;

type GroupRow = Group & { schoolDistrictId: number };

/**
 * A row of `groupRows` as Prisma reads it for `selection`: the school's district only when asked. The columns Prisma
 * would not carry stay on it, and nothing reads them. The school goes into a copy whose literal names it first: a
 * property added to the driver's row, or after a spread, gives the row a hidden class of its own on Node 20, which
 * keeps the row (and what refers to it) until the next full collection (docs/performance.md, "Mechanisms").
 */
function asPrismaRow(row: GroupRow, selection: PrismaQuery): Group {
  if (!selection.include?.school) return row;
  const withSchool: Group & { school: { districtId: number } } = {
    school: { districtId: row.schoolDistrictId },
    ...row,
  };
  return withSchool;
}

/**
 * Groups by id read directly: every `GET /v1/groups/{id}` and `group(id)` that asks no relation reads its row this
 * way, where Prisma's client costs more than the statement.
 */
export const groupsById: DirectRows = {
  answers: rowAndDistrict,
  byIds: async (ids, selection) =>
    (await directQuery<GroupRow>(`${groupRows} WHERE groups.id = ANY($1::int4[])`, [ids])).map((row) =>
      asPrismaRow(row, selection),
    ),
};

/**
 * The groups of district `district`, or of school `school` alone when it is not null (SQL expressions: parameters, or
 * the columns of a window asked for): the sum of their schools' counts, which triggers keep in the statements that
 * write groups (school_group_counts), so as exact as a count of the rows.
 */
const districtGroupTotal = (district: string, school: string) => `SELECT COALESCE(SUM(counts.count), 0)::int4 AS total
  FROM school_group_counts counts JOIN schools ON schools.id = counts."schoolId"
  WHERE schools."districtId" = ${district} AND (${school} IS NULL OR counts."schoolId" = ${school})`;

/** How many groups district `districtId` has, or its school `schoolId` alone when not null; sent directly. */
export async function countDistrictGroups(districtId: number, schoolId: number | null): Promise<number> {
  const [{ total }] = await directQuery<{ total: number }>(districtGroupTotal('$1', '$2::int4'), [
    districtId,
    schoolId,
  ]);
  return total;
}

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

/** A window of a district's groups in id order: of district `districtId`, or of one school of it when not null. */
export interface DistrictWindow {
  districtId: number;
  schoolId: number | null;
  take: number;
  skip: number;
}

type WindowRow = GroupRow & { listTotal: number; listWindow: number };

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
 * the round trip costs a request more than its rows (docs/performance.md, "Mechanisms"). Every window is read by
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
 * A window of a district's groups and its total, in one statement (so both are of one snapshot), shared with the other
 * such windows asked in the same turn, with the rows as Prisma reads them for `selection` (one `rowAndDistrict`
 * accepts).
 */
export async function readDistrictWindow(window: DistrictWindow, selection: PrismaQuery) {
  const { rows, total } = await districtWindows.load(window);
  return { rows: rows.map((row) => asPrismaRow(row, selection)), total };
}

/** What a new group's one statement writes besides its event: the group, and its creator's membership as its administrator. */
export function groupWithCreator(
  values: Record<string, unknown> & { createdAt: string },
  creatorId: number,
): Omit<OneStatementCreate, 'event'> {
  return {
    insert: insertReturning('groups', values, groupColumnNames),
    alongside: [
      Prisma.sql`INSERT INTO group_memberships ("groupId", "userId", admin, "createdAt") SELECT id, ${creatorId}::int4, true, ${values.createdAt}::timestamp(3) FROM created`,
    ],
  };
}
