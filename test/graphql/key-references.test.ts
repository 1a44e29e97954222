import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../src/db/database';
import { type GraphQLClient, graphqlClientFor } from '../support/client';
import { createDistrict, createGroup, createSchool, createUser } from '../support/factories';
import { useTestServer } from '../support/harness';

const server = useTestServer();

/** A group's and a user's `school`, `building` and `category` are made from their key columns when only ids are asked. */
describe('references asked for their ids only', () => {
  let graphql: GraphQLClient;
  let school: { id: number; title: string };
  let building: { id: number; title: string };
  let category: { id: number; title: string };
  let withBoth: number;
  let withNeither: number;

  beforeAll(async () => {
    const district = await createDistrict();
    school = await createSchool(district.id);
    building = await createSchool(district.id, { parentId: school.id });
    category = await db().groupCategory.create({ data: { districtId: district.id, title: 'Clubs' } });
    const admin = await createUser(school.id, 'SCHOOL_ADMIN', { buildingId: building.id });
    withBoth = (await createGroup(school.id, { buildingId: building.id })).id;
    await db().group.update({ where: { id: withBoth }, data: { categoryId: category.id } });
    withNeither = (await createGroup(school.id)).id;
    graphql = await graphqlClientFor(server, admin);
  });

  /** The answer for the two groups, and the SQL the request sent. */
  async function ask(items: string) {
    let result: { data?: { groups: { items: Record<string, unknown>[] } }; errors?: unknown } = {};
    const statements = await server.database.statementsOf(async () => {
      result = await graphql(`{ groups(limit: 200) { items { databaseId ${items} } } }`);
    });
    expect(result.errors).toBeUndefined();
    const byId = new Map(result.data!.groups.items.map((item) => [Number(item.databaseId), item]));
    // Joins of the groups' own statements (authentication reads the credential's user and school).
    const pages = statements.filter((sql) => sql.includes('FROM "public"."groups"'));
    const lateralJoins = pages.join('\n').match(/JOIN LATERAL/g)?.length ?? 0;
    return { both: byId.get(withBoth)!, neither: byId.get(withNeither)!, lateralJoins };
  }

  const globalId = (type: string, id: number) => Buffer.from(`${type}:${id}`).toString('base64');

  it('are answered from the keys, with no join', async () => {
    const { both, neither, lateralJoins } = await ask(
      'school { id databaseId } building { databaseId __typename } category { id }',
    );
    expect(both).toMatchObject({
      school: { id: globalId('School', school.id), databaseId: String(school.id) },
      building: { databaseId: String(building.id), __typename: 'School' },
      category: { id: globalId('GroupCategory', category.id) },
    });
    expect(neither).toMatchObject({ school: { databaseId: String(school.id) }, building: null, category: null });
    expect(lateralJoins).toBe(0);
  });

  it('load the related row, with the parent, when more than ids is asked', async () => {
    const { both, neither, lateralJoins } = await ask(
      'school { databaseId title } building { title } category { title }',
    );
    expect(both).toMatchObject({
      school: { databaseId: String(school.id), title: school.title },
      building: { title: building.title },
      category: { title: 'Clubs' },
    });
    expect(neither).toMatchObject({ school: { title: school.title }, building: null, category: null });
    expect(lateralJoins).toBe(3);
  });

  it('load the row when another selection of the same field asks for more, through a fragment', async () => {
    const { both } = await ask(
      'school { id } ...on Group { school { title } building { databaseId } } building { title }',
    );
    expect(both).toMatchObject({
      school: { id: globalId('School', school.id), title: school.title },
      building: { databaseId: String(building.id), title: building.title },
    });
  });

  it('are not taken from a part of the row another field loaded for itself', async () => {
    // accessCode loads the group's access facts, which read a column of its school.
    const { both, neither } = await ask('accessCode school { databaseId } building { databaseId }');
    expect(both).toMatchObject({
      school: { databaseId: String(school.id) },
      building: { databaseId: String(building.id) },
    });
    expect(neither).toMatchObject({ school: { databaseId: String(school.id) }, building: null });
    expect(both.accessCode).toEqual(expect.any(String));
  });

  it('honour @include and @skip when deciding', async () => {
    const document = `query ($more: Boolean!) { groups(limit: 200) { items { databaseId school { databaseId title @include(if: $more) } } } }`;
    const answers = await Promise.all(
      [true, false].map(async (more) => {
        const result = await graphql(document, { more });
        expect(result.errors).toBeUndefined();
        return result.data.groups.items.find((item: { databaseId: string }) => Number(item.databaseId) === withBoth)
          .school;
      }),
    );
    expect(answers).toEqual([
      { databaseId: String(school.id), title: school.title },
      { databaseId: String(school.id) },
    ]);
  });

  it("hold for a user's school and building", async () => {
    const result = await graphql(`{ viewer { school { databaseId } building { id } } }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.viewer).toEqual({
      school: { databaseId: String(school.id) },
      building: { id: globalId('School', building.id) },
    });
  });
});
