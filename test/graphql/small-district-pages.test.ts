import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { clientsFor } from '../support/client';
import { createDistrict, createGroup, createSchool, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

/**
 * A district's first page is read school by school (`schoolsFirstGroups`, src/modules/groups/group.sql.ts). Read in
 * the table's id order, PostgreSQL walked the primary key past every group of the districts created before this one:
 * 100 ms for a district of 30 groups after a million others (docs/performance.md, "Mechanisms").
 */
const server = useTestServer();
const clients = clientsFor(server);
const othersBefore = 20_000;
let expected: number[];
let districtId: number;
let largeDistrictId: number;
let pageStatement: string;
let graphql: Awaited<ReturnType<typeof clients.graphql>>;

beforeAll(async () => {
  largeDistrictId = (await createDistrict()).id;
  const large = await createSchool(largeDistrictId);
  await db().$executeRawUnsafe(
    `INSERT INTO groups ("schoolId", title, "accessCode") SELECT $1::int4, 'Group ' || n, 'LARGE-' || n FROM generate_series(1, ${othersBefore}) AS n`,
    large.id,
  );
  districtId = (await createDistrict()).id;
  const [first, second] = [await createSchool(districtId), await createSchool(districtId)];
  const groups = [];
  for (let index = 0; index < 30; index++) groups.push(await createGroup(index % 3 === 0 ? second.id : first.id));
  expected = groups.map((group) => group.id);
  await db().$executeRawUnsafe('ANALYZE groups');
  graphql = await clients.graphql(await createUser(first.id, 'DISTRICT_ADMIN'));
});

describe("a small district's first page, after many groups of other districts", () => {
  it("reads only its own schools' first groups, whatever comes before them in the table", async () => {
    const query = 'query($start: Int!) { groups(start: $start, limit: 20) { total items { databaseId } } }';
    const statements = await server.database.statementsOf(async () => {
      const answer = await graphql(query, { start: 5 });
      expect(answer.data.groups).toEqual({
        total: 30,
        items: expected.slice(5, 25).map((id) => ({ databaseId: String(id) })),
      });
    });
    pageStatement = statements.find((sql) => sql.includes('school_group_counts'))!;
    const groupRowsRead = await groupRowsReadBy(pageStatement, [districtId], [null], [20], [5]);
    expect(groupRowsRead).toBeGreaterThanOrEqual(25);
    expect(groupRowsRead).toBeLessThan(100);
  });

  it('reads as little when the windows of other requests share its statement', async () => {
    // The large district's own first 25, and this district's: every window is read through its schools.
    const groupRowsRead = await groupRowsReadBy(
      pageStatement,
      [largeDistrictId, districtId],
      [null, null],
      [20, 20],
      [5, 5],
    );
    expect(groupRowsRead).toBeGreaterThanOrEqual(50);
    expect(groupRowsRead).toBeLessThan(150);
  });
});

/** The rows of groups each scan read, as PostgreSQL ran the statement: those it produced and those its filter dropped. */
async function groupRowsReadBy(statement: string, ...parameters: unknown[]): Promise<number> {
  const [
    {
      'QUERY PLAN': [plan],
    },
  ] = await db().$queryRawUnsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`,
    ...parameters,
  );
  return scansOf(plan.Plan, 'groups').reduce(
    (sum, node) => sum + (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'],
    0,
  );
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** The nodes of a plan that read `relation`. */
function scansOf(node: PlanNode, relation: string): PlanNode[] {
  const own = node['Relation Name'] === relation ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scansOf(child, relation))];
}
