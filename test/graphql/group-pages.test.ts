import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import type { PrivacyLevel } from '../../src/generated/prisma/enums';
import { type GraphQLClient, type RestClient, clientsFor } from '../support/client';
import { createGroupCategory, createWorld, unique, type World } from '../support/factories';
import { useTestServer } from '../support/harness';

/**
 * The group list is read from whichever end a page is nearer to, and a page far from both ends by its ids first; a
 * district administrator's total comes from the schools' group counts. Every page, from every position, must be the
 * slice of the one list in ascending id order that a plain read gives, for every kind of viewer and filter.
 */
const server = useTestServer();
const clients = clientsFor(server);

const privacyLevels: PrivacyLevel[] = ['EVERYONE', 'SCHOOL', 'BUILDING', 'GROUP'];
let world: World;
let expected: {
  districtAdmin: number[];
  schoolAdmin: number[];
  teacher: number[];
  building: number[];
  otherSchool: number[];
};
let graphql: Record<'districtAdmin' | 'schoolAdmin' | 'teacher', GraphQLClient>;
let rest: RestClient;
let categoryId: number;

beforeAll(async () => {
  world = await createWorld();
  const { school, building, otherSchool, farSchool, teacher, schoolAdmin } = world;
  categoryId = (await createGroupCategory(world.district.id)).id;
  // Enough groups that a page can be more than 200 rows (the direct reading's limit) away from both ends, interleaved
  // across schools, buildings and privacy levels, with groups of another district among them (never listed).
  const rows = Array.from({ length: 800 }, (_, index) => {
    const schoolId = index % 13 === 0 ? farSchool.id : index % 5 === 4 ? otherSchool.id : school.id;
    return {
      schoolId,
      buildingId: schoolId === school.id && index % 3 === 0 ? building.id : null,
      categoryId: index % 7 === 0 && schoolId !== farSchool.id ? categoryId : null,
      privacyLevel: privacyLevels[index % privacyLevels.length]!,
      title: unique('Group'),
      accessCode: unique('CODE'),
    };
  });
  await db().group.createMany({ data: rows });
  const groups = await db().group.findMany({ orderBy: { id: 'asc' }, include: { school: true } });
  // The teacher is a member of some groups that only members see.
  const joined = groups.filter((group) => group.privacyLevel === 'GROUP').filter((_, index) => index % 4 === 0);
  await db().groupMembership.createMany({ data: joined.map((group) => ({ groupId: group.id, userId: teacher.id })) });
  const teacherGroups = new Set(joined.map((group) => group.id));

  const inDistrict = groups.filter((group) => group.school.districtId === world.district.id);
  // The access rule, written out for these groups: what each viewer must be listed.
  const seenBy = (
    viewer: { schoolId: number; buildingId: number | null },
    administersSchool: boolean,
    member = new Set<number>(),
  ) =>
    inDistrict
      .filter(
        (group) =>
          (administersSchool && group.schoolId === viewer.schoolId) ||
          member.has(group.id) ||
          group.privacyLevel === 'EVERYONE' ||
          (group.privacyLevel === 'SCHOOL' && group.schoolId === viewer.schoolId) ||
          (group.privacyLevel === 'BUILDING' &&
            group.schoolId === viewer.schoolId &&
            (group.buildingId === null || group.buildingId === viewer.buildingId)),
      )
      .map((group) => group.id);
  expected = {
    districtAdmin: inDistrict.map((group) => group.id),
    schoolAdmin: seenBy(schoolAdmin, true),
    teacher: seenBy(teacher, false, teacherGroups),
    building: inDistrict.filter((group) => group.buildingId === building.id).map((group) => group.id),
    otherSchool: inDistrict.filter((group) => group.schoolId === otherSchool.id).map((group) => group.id),
  };
  graphql = await clients.graphqlFor(['districtAdmin', 'schoolAdmin', 'teacher'], world);
  rest = await clients.rest(world.districtAdmin);
});

/** Positions around both ends, around the direct reading's limit (200) from each end, past the end, and between. */
function startsFor(total: number, limit: number) {
  const starts = [
    0,
    1,
    199,
    200,
    201,
    230,
    total - limit - 201,
    total - limit - 200,
    total - 2 * limit,
    total - limit - 1,
    total - limit,
  ];
  starts.push(total - limit + 1, total - 1, total, total + 5, Math.floor(total / 2), Math.floor(total / 2) - limit);
  return [...new Set(starts.filter((start) => start >= 0))].sort((a, b) => a - b);
}

const pageQuery = `query($start: Int!, $limit: Int!, $buildingId: ID, $schoolId: ID) {
  groups(start: $start, limit: $limit, buildingId: $buildingId, schoolId: $schoolId) {
    total start limit items { id: databaseId title school { id: databaseId } building { id: databaseId } category { id: databaseId } }
  }
}`;

describe('groups(start, limit) from either end', () => {
  it.each([
    ['districtAdmin', 20],
    ['districtAdmin', 7],
    ['schoolAdmin', 20],
    ['teacher', 20],
    ['teacher', 13],
  ] as const)(
    'as %s, pages of %i: every page is the slice of the list in id order, with its relations',
    async (viewer, limit) => {
      const list = expected[viewer];
      // Some page lies more than 200 rows from both ends.
      expect(list.length).toBeGreaterThan(limit + 2 * 201);
      const rows = new Map(
        (await db().group.findMany({ where: { id: { in: list } } })).map((group) => [group.id, group]),
      );
      for (const start of startsFor(list.length, limit)) {
        const result = await graphql[viewer](pageQuery, { start, limit });
        expect(result.errors).toBeUndefined();
        const slice = list.slice(start, start + limit).map((id) => rows.get(id)!);
        expect({ start, page: result.data.groups }).toEqual({
          start,
          page: {
            total: list.length,
            start,
            limit,
            items: slice.map((group) => ({
              id: String(group.id),
              title: group.title,
              school: { id: String(group.schoolId) },
              building: group.buildingId === null ? null : { id: String(group.buildingId) },
              category: group.categoryId === null ? null : { id: String(group.categoryId) },
            })),
          },
        });
      }
    },
  );

  it.each([
    ['buildingId', 'building'],
    ['schoolId', 'otherSchool'],
  ] as const)('narrowed by %s: pages and total of the narrowed list', async (argument, list) => {
    const ids = expected[list];
    const value = String(argument === 'buildingId' ? world.building.id : world.otherSchool.id);
    for (const start of startsFor(ids.length, 10)) {
      const result = await graphql.districtAdmin(pageQuery, { start, limit: 10, [argument]: value });
      expect(result.errors).toBeUndefined();
      expect({
        start,
        total: result.data.groups.total,
        ids: result.data.groups.items.map((item: { id: string }) => Number(item.id)),
      }).toEqual({ start, total: ids.length, ids: ids.slice(start, start + 10) });
    }
  });

  it('groupsConnection counts what groups counts, for each viewer and filter', async () => {
    const count = `query($schoolId: ID, $buildingId: ID) {
      groupsConnection(first: 1, schoolId: $schoolId, buildingId: $buildingId) { totalCount }
      groups(limit: 1, schoolId: $schoolId, buildingId: $buildingId) { total }
    }`;
    for (const viewer of ['districtAdmin', 'schoolAdmin', 'teacher'] as const) {
      const result = await graphql[viewer](count);
      expect(result.data).toEqual({
        groupsConnection: { totalCount: expected[viewer].length },
        groups: { total: expected[viewer].length },
      });
    }
    const narrowed = await graphql.districtAdmin(count, { schoolId: String(world.otherSchool.id) });
    expect(narrowed.data.groupsConnection.totalCount).toBe(expected.otherSchool.length);
    // A school of another district: the district's counts hold none of its groups.
    const far = await graphql.districtAdmin(count, { schoolId: String(world.farSchool.id) });
    expect(far.data).toEqual({ groupsConnection: { totalCount: 0 }, groups: { total: 0 } });
  });

  it('GET /v1/groups answers the same pages near the start, in the middle and at the end', async () => {
    const list = expected.districtAdmin;
    for (const start of [0, 250, list.length - 20, list.length - 5]) {
      const response = await rest.get(`/groups?start=${start}&limit=20`);
      expect(response.status).toBe(200);
      expect({
        start,
        total: response.json.total,
        ids: response.json.group.map((group: { id: string }) => Number(group.id)),
      }).toEqual({ start, total: list.length, ids: list.slice(start, start + 20) });
    }
  });
});

describe('statements of a page', () => {
  /** SQL statements of one request (the bearer token's lookup included: the test server caches no credential). */
  async function statementsAt(start: number) {
    const before = server.database.statementCount;
    const result = await graphql.districtAdmin(pageQuery, { start, limit: 20 });
    expect(result.errors).toBeUndefined();
    expect(result.data.groups.items.length).toBe(Math.max(0, Math.min(20, expected.districtAdmin.length - start)));
    return server.database.statementCount - before;
  }

  it('the first page holds its count; the last takes the count and one statement; a page far from both ends its ids and its rows', async () => {
    const total = expected.districtAdmin.length;
    // token, the page with its count
    expect(await statementsAt(0)).toBe(2);
    expect(await statementsAt(200)).toBe(2);
    expect(await statementsAt(total - 20)).toBe(3);
    expect(await statementsAt(total - 7)).toBe(3);
    // token, count, the page's ids, its rows: at most three statements for the list itself, wherever the page is
    expect(await statementsAt(Math.floor(total / 2))).toBe(4);
    // token, count: nothing lies past the end
    expect(await statementsAt(total)).toBe(2);
  });
});

describe("a district administrator's first pages, read with their total in one statement", () => {
  /** Every field a group's row answers, its permission fields, and its references. */
  const everyColumn = `databaseId title description pictureUrl website groupCode memberPost memberPostComment createDiscussion
    createFiles createdAt privacyLevel inviteType accessCode viewerCanPost viewerCanComment school { id } building { id } category { id }`;
  const firstPages = (extra: string) => `query($start: Int!, $schoolId: ID) {
    groups(start: $start, limit: 30, schoolId: $schoolId) { total start items { ${everyColumn} ${extra} } }
  }`;

  /** The page as the one statement reads it, and as Prisma reads it (`memberCount` needs a relation count). */
  async function bothWays(variables: Record<string, unknown>) {
    const before = server.database.statementCount;
    const together = await graphql.districtAdmin(firstPages(''), variables);
    const statements = server.database.statementCount - before;
    const apart = await graphql.districtAdmin(firstPages('memberCount'), variables);
    expect(together.errors).toBeUndefined();
    expect(apart.errors).toBeUndefined();
    const withoutCount = apart.data.groups.items.map(
      ({ memberCount: _count, ...item }: Record<string, unknown>) => item,
    );
    return { together: together.data.groups, apart: { ...apart.data.groups, items: withoutCount }, statements };
  }

  it.each([
    ['the whole district', {}],
    ['one school', { schoolId: 'otherSchool' }],
  ] as const)(
    '%s: the same rows and total as Prisma reads them, in one statement after the token',
    async (_name, filter) => {
      const list = 'schoolId' in filter ? expected.otherSchool : expected.districtAdmin;
      const schoolId = 'schoolId' in filter ? String(world.otherSchool.id) : undefined;
      for (const start of [0, 17, 200]) {
        const { together, apart, statements } = await bothWays({ start, schoolId });
        expect(statements).toBe(2);
        expect(together).toEqual(apart);
        expect(together.total).toBe(list.length);
        expect(together.items.map((item: { databaseId: string }) => Number(item.databaseId))).toEqual(
          list.slice(start, start + 30),
        );
      }
    },
  );

  it('past the end: the total without rows; a school of another district: none', async () => {
    const { together } = await bothWays({ start: 180, schoolId: String(world.otherSchool.id) });
    expect(together).toEqual({ total: expected.otherSchool.length, start: 180, items: [] });
    expect(expected.otherSchool.length).toBeLessThan(180);
    expect((await bothWays({ start: 0, schoolId: String(world.farSchool.id) })).together).toEqual({
      total: 0,
      start: 0,
      items: [],
    });
  });

  it('reads creation times as UTC whatever the time zone of the process', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Auckland';
    try {
      expect(new Date(2026, 0, 1).getTimezoneOffset()).not.toBe(0);
      const { together, apart } = await bothWays({ start: 0 });
      expect(together.items.map((item: { createdAt: string }) => item.createdAt)).toEqual(
        apart.items.map((item: { createdAt: string }) => item.createdAt),
      );
      const stored = await db().group.findUniqueOrThrow({ where: { id: Number(together.items[0].databaseId) } });
      expect(together.items[0].createdAt).toBe(stored.createdAt.toISOString());
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it("GET /v1/groups, with its rows' access facts: one statement after authentication", async () => {
    let response!: Awaited<ReturnType<RestClient['get']>>;
    const statements = await server.database.statementsOf(async () => {
      response = await rest.get('/groups?start=0&limit=20');
    });
    // The signed request's API client and nonce, then the page with its count.
    expect(statements).toHaveLength(3);
    expect(statements[2]).toMatch(/school_group_counts[\s\S]*FROM groups/);
    expect(response.json.total).toBe(expected.districtAdmin.length);
    expect(response.json.group.map((group: { id: string }) => Number(group.id))).toEqual(
      expected.districtAdmin.slice(0, 20),
    );
  });
});

describe("the schools' group counts", () => {
  /** Each school's count: the sum of its rows (one per shard written through). */
  const keptCounts = async (schoolIds?: number[]) =>
    (
      await db().schoolGroupCount.groupBy({
        by: ['schoolId'],
        _sum: { count: true },
        where: schoolIds && { schoolId: { in: schoolIds } },
        orderBy: { schoolId: 'asc' },
      })
    ).map((row) => ({ schoolId: row.schoolId, count: row._sum.count }));

  /** The counts table against a count of the rows, for every school of the database. */
  async function countsAgree() {
    const counted = await db().group.groupBy({ by: ['schoolId'], _count: { _all: true } });
    const kept = (await keptCounts()).filter((row) => row.count !== 0);
    expect(new Map(kept.map((row) => [row.schoolId, row.count]))).toEqual(
      new Map(counted.map((row) => [row.schoolId, row._count._all])),
    );
  }

  it('follow creates (one and many), deletes, moves between schools and the cascades of a school and a district', async () => {
    const { school, otherSchool } = world;
    await countsAgree();
    const created = await rest.post('/groups', { title: 'Counted', school_id: String(school.id) });
    expect(created.status).toBe(201);
    await countsAgree();
    const moved = await db().group.findFirstOrThrow({ where: { schoolId: school.id }, select: { id: true } });
    await db().group.update({ where: { id: moved.id }, data: { schoolId: otherSchool.id } });
    await db().group.updateMany({
      where: { schoolId: otherSchool.id, privacyLevel: 'GROUP' },
      data: { title: 'Renamed' },
    });
    await countsAgree();
    await db().group.updateMany({
      where: { schoolId: otherSchool.id, privacyLevel: 'SCHOOL' },
      data: { schoolId: school.id },
    });
    await countsAgree();
    expect((await rest.delete(`/groups/${created.json.id}`)).status).toBe(204);
    await db().group.deleteMany({ where: { schoolId: school.id, privacyLevel: 'EVERYONE' } });
    await countsAgree();

    const district = await db().district.create({ data: { title: unique('District') } });
    const [a, b] = [
      await db().school.create({ data: { districtId: district.id, title: unique('School') } }),
      await db().school.create({ data: { districtId: district.id, title: unique('School') } }),
    ];
    const many = (schoolId: number, count: number) =>
      Array.from({ length: count }, () => ({ schoolId, title: unique('Group'), accessCode: unique('CODE') }));
    await db().group.createMany({ data: [...many(a.id, 3), ...many(b.id, 4)] });
    // Concurrent creates in one school: each transaction adds its own group to the same count.
    await Promise.all(many(a.id, 8).map((data) => db().group.create({ data })));
    await countsAgree();
    expect(await keptCounts([a.id, b.id])).toEqual([
      { schoolId: a.id, count: 11 },
      { schoolId: b.id, count: 4 },
    ]);
    await db().school.delete({ where: { id: a.id } });
    await countsAgree();
    await db().district.delete({ where: { id: district.id } });
    await countsAgree();
    expect(await db().schoolGroupCount.count({ where: { schoolId: { in: [a.id, b.id] } } })).toBe(0);
  });
});
